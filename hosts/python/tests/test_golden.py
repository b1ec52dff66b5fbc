"""Golden vectors (tests/vectors) on every path of the path table, the module
functions, the defaults, and an independent reader (zxing-cpp) on exact
texts."""

from __future__ import annotations

import hashlib
import io
from typing import Any

import pytest
import zxingcpp
from PIL import Image

import qrglue
import qrglue.raw
from conftest import CASES, EXPECTED, REFERENCE_URL_CASE
from corpus import case_options, case_text
from qrglue import QrError

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_vectors_cover_every_error_kind() -> None:
    kinds = {e["error"] for e in EXPECTED.values() if "error" in e}
    assert kinds == {"empty-text", "invalid-text", "data-too-long", "invalid-options"}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_golden_vector(gen: Any, case: dict[str, Any]) -> None:
    expected = EXPECTED[case["id"]]
    text, options = case_text(case), case_options(case)
    if "error" in expected:
        for render in (gen.png, gen.svg):
            with pytest.raises(QrError) as info:
                render(text, **options)
            assert (info.value.kind, str(info.value)) == (expected["error"], expected["message"])
    else:
        png = gen.png(text, **options)
        assert png.startswith(PNG_SIGNATURE)
        assert len(png) == expected["png_bytes"]
        assert sha256(png) == expected["png_sha256"]
        assert sha256(gen.svg(text, **options).encode("utf-8")) == expected["svg_sha256"]


def test_module_functions_match_golden_on_both_paths() -> None:
    text = REFERENCE_URL_CASE["text"]
    expected = EXPECTED["ref-02"]
    for module in (qrglue, qrglue.raw):
        assert sha256(module.png(text)) == expected["png_sha256"]
        assert sha256(module.svg(text).encode()) == expected["svg_sha256"]


def test_defaults_are_low_200_4(gen: Any) -> None:
    text = REFERENCE_URL_CASE["text"]
    explicit = gen.png(text, ec_level="low", min_size=200, quiet_zone=4)
    assert gen.png(text) == explicit
    assert gen.png(text, ec_level="high") != explicit
    assert gen.png(text, min_size=300) != explicit
    assert gen.png(text, quiet_zone=0) != explicit
    assert Image.open(io.BytesIO(explicit)).size == (222, 222)  # 29 modules + 2*4, scale 6


@pytest.mark.parametrize("text", [
    REFERENCE_URL_CASE["text"],
    "héllo wörld ☃ 日本語 🦀",
    "8" * 7089,                               # the longest text any QR code holds
])
def test_zxing_decodes_exact_text(gen: Any, text: str) -> None:
    png = gen.png(text, min_size=200)
    results = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
    assert [r.text for r in results] == [text]
    assert results[0].format == zxingcpp.BarcodeFormat.QRCode


def test_svg_is_a_document(gen: Any) -> None:
    svg = gen.svg("hello")
    assert svg.lstrip().startswith("<") and "<svg" in svg and svg.rstrip().endswith("</svg>")
