"""Golden vectors, error kinds, defaults and independent decoding, on both paths."""

from __future__ import annotations

import hashlib
import io
import subprocess
import sys
from pathlib import Path
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


@pytest.mark.parametrize("text, options, kind", [
    ("", {}, "empty-text"),
    ("", {"min_size": 0}, "empty-text"),                 # empty-text comes before invalid-options
    ("", {"min_size": "big"}, "empty-text"),             # ...even when the options cannot be passed
    ("ab\ud800cd", {}, "invalid-text"),                  # lone high surrogate
    ("\udfff", {"min_size": 0}, "invalid-text"),         # lone low surrogate, before invalid-options
    ("x" * 7090, {}, "data-too-long"),                   # over 7089 bytes: rejected on the host
    ("é" * 3545, {}, "data-too-long"),                   # 7090 UTF-8 bytes, 3545 chars
    ("x" * 7090, {"min_size": 0}, "data-too-long"),      # before invalid-options
    ("a" * 3000, {"ec_level": "high"}, "data-too-long"),  # fits 7089 bytes, not a version-40-H code
    ("x", {"min_size": 0}, "invalid-options"),
    ("x", {"min_size": 4097}, "invalid-options"),
    ("x", {"quiet_zone": 17}, "invalid-options"),
    ("x", {"ec_level": "ultra"}, "invalid-options"),
    ("x", {"ec_level": 0}, "invalid-options"),
    ("x", {"min_size": True}, "invalid-options"),        # bool is not a size
    ("x", {"min_size": 2.0}, "invalid-options"),
    ("x", {"min_size": -1}, "invalid-options"),
    ("x", {"quiet_zone": 2**32}, "invalid-options"),
])
def test_error_kinds(gen: Any, text: str, options: dict[str, Any], kind: str) -> None:
    for render in (gen.png, gen.svg):
        with pytest.raises(QrError) as info:
            render(text, **options)
        assert info.value.kind == kind
        assert isinstance(info.value, ValueError)


def test_range_messages_name_the_option(gen: Any) -> None:
    with pytest.raises(QrError) as info:
        gen.png("x", min_size=5000)
    assert str(info.value) == info.value.message == "min-size must be within 1..=4096, got 5000"


def test_non_str_text_is_a_type_error(gen: Any) -> None:
    with pytest.raises(TypeError):
        gen.png(b"bytes")


def test_options_are_keyword_only() -> None:
    with pytest.raises(TypeError):
        qrglue.png("x", "low")  # type: ignore[call-arg]  # deliberately positional: must be refused


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


def test_trap_recovery(wasm_gen: Any) -> None:
    # The native path has no guest to trap: its panic probe, test_native.py.
    gen = wasm_gen
    text, options = case_text(REFERENCE_URL_CASE), case_options(REFERENCE_URL_CASE)
    golden = EXPECTED[REFERENCE_URL_CASE["id"]]
    for _ in range(3):
        with pytest.raises(qrglue.GuestTrap, match="trapped") as info:
            gen.trap()
        assert "unreachable" in str(info.value.__cause__)  # the wasm reason is kept
        # a fresh Store: the very next call returns the golden bytes
        assert sha256(gen.png(text, **options)) == golden["png_sha256"]
        assert sha256(gen.svg(text, **options).encode()) == golden["svg_sha256"]
    with pytest.raises(QrError):
        gen.png("")  # errors still map after recovery


def test_probes(gen: Any) -> None:
    gen.noop()
    for n in (0, 1, 251, 1000):
        data = bytes(range(256)) * (n // 256 + 1)
        assert gen.consume(data[:n]) == n
        assert gen.produce(n) == bytes(i % 251 for i in range(n))
    png = gen.png("hello")
    assert gen.png_repeat("hello", 3) == len(png)
    with pytest.raises(QrError) as info:
        gen.png_repeat("", 3)
    assert info.value.kind == "empty-text"


def test_cli_writes_png_on_both_paths(tmp_path: Path) -> None:
    text = REFERENCE_URL_CASE["text"]
    for path in ("component", "raw"):
        out = tmp_path / f"{path}.png"
        done = subprocess.run([sys.executable, "-m", "qrglue", text, "-o", str(out), "--path", path],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert sha256(out.read_bytes()) == EXPECTED["ref-02"]["png_sha256"]
    svg_out = tmp_path / "x.svg"
    subprocess.run([sys.executable, "-m", "qrglue", text, "-o", str(svg_out), "--svg"], check=True)
    assert sha256(svg_out.read_bytes()) == EXPECTED["ref-02"]["svg_sha256"]


def test_cli_reports_errors(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "qrglue", "", "-o", str(tmp_path / "x.png")],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr == "qrglue: empty-text: text is empty\n"
    assert not (tmp_path / "x.png").exists()
