"""Golden vectors (tests/vectors) on every path of the path table (png, svg,
the matrix and the text in every style), the module functions, the defaults,
and an independent reader (zxing-cpp) on exact texts."""

from __future__ import annotations

import base64
import functools
import hashlib
import io
from typing import Any

import pytest
import zxingcpp
from PIL import Image

import qrglue
import qrglue.native
import qrglue.raw
from conftest import CASES, EXPECTED, REFERENCE_URL_CASE
from corpus import case_options, case_text, matrix_sha256
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
        renders = [gen.png, gen.svg, gen.matrix, gen.text,
                   *(functools.partial(gen.text, style=style) for style in qrglue.TEXT_STYLES)]
        for render in renders:
            with pytest.raises(QrError) as info:
                render(text, **options)
            assert (info.value.kind, str(info.value)) == (expected["error"], expected["message"])
    else:
        png = gen.png(text, **options)
        assert png.startswith(PNG_SIGNATURE)
        assert len(png) == expected["png_bytes"]
        assert sha256(png) == expected["png_sha256"]
        assert sha256(gen.svg(text, **options).encode("utf-8")) == expected["svg_sha256"]
        assert matrix_sha256(gen.matrix(text, **options)) == expected["matrix_sha256"]
        drawn = {style: sha256(gen.text(text, style=style, **options).encode("utf-8")) for style in qrglue.TEXT_STYLES}
        assert drawn == expected["text_sha256"]
        assert gen.text(text, **options) == gen.text(text, style="half-blocks", **options)  # the default style


def test_vectors_have_every_output_of_every_code() -> None:
    images = [e for e in EXPECTED.values() if "error" not in e]
    assert images and all(set(e) == {"png_sha256", "png_bytes", "svg_sha256", "matrix_sha256", "text_sha256"}
                          and set(e["text_sha256"]) == set(qrglue.TEXT_STYLES) for e in images)


def test_module_functions_match_golden_on_every_path() -> None:
    text = REFERENCE_URL_CASE["text"]
    expected = EXPECTED["ref-02"]
    for module in (qrglue, qrglue.raw, qrglue.native):
        assert sha256(module.png(text)) == expected["png_sha256"]
        assert sha256(module.svg(text).encode()) == expected["svg_sha256"]
        assert matrix_sha256(module.matrix(text)) == expected["matrix_sha256"]
        assert sha256(module.text(text).encode()) == expected["text_sha256"]["half-blocks"]
        assert sha256(module.text(text, style="ascii").encode()) == expected["text_sha256"]["ascii"]


def test_defaults_are_low_200_4(gen: Any) -> None:
    text = REFERENCE_URL_CASE["text"]
    explicit = gen.png(text, ec_level="low", min_size=200, quiet_zone=4)
    assert gen.png(text) == explicit
    assert gen.png(text, ec_level="high") != explicit
    assert gen.png(text, min_size=300) != explicit
    assert gen.png(text, quiet_zone=0) != explicit
    assert Image.open(io.BytesIO(explicit)).size == (222, 222)  # 29 modules + 2*4, scale 6


def test_matrix_and_text_defaults_and_the_options_they_use(gen: Any) -> None:
    text = REFERENCE_URL_CASE["text"]
    matrix = gen.matrix(text)
    assert isinstance(matrix, qrglue.QrMatrix) and type(matrix.modules) is bytes
    assert matrix.width == 29 and len(matrix.modules) == (29 * 29 + 7) // 8
    # Only the EC level shapes the matrix.
    assert gen.matrix(text, min_size=4096, quiet_zone=0) == matrix == gen.matrix(text, ec_level="low")
    assert gen.matrix(text, ec_level="high") != matrix
    drawn = gen.text(text)
    assert drawn == gen.text(text, style="half-blocks", ec_level="low", min_size=200, quiet_zone=4)
    assert gen.text(text, min_size=4096) == drawn  # min-size is checked, not used
    lines = drawn.split("\n")
    assert lines.pop() == ""  # every line ends with a newline
    assert len(lines) == (29 + 2 * 4 + 1) // 2 and {len(line) for line in lines} == {29 + 2 * 4}
    ascii_lines = gen.text(text, style="ascii", quiet_zone=1).splitlines()
    assert len(ascii_lines) == 31 and {len(line) for line in ascii_lines} == {2 * 31}


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


def test_qr_matrix_reads_its_packed_modules() -> None:
    # 3x3, row-major, MSB first: bits 100 010 001 (a diagonal), then 7 unused 0 bits.
    diagonal = qrglue.QrMatrix(3, bytes([0b10001000, 0b10000000]))
    assert diagonal.rows() == [[True, False, False], [False, True, False], [False, False, True]]
    assert [diagonal.is_dark(x, 1) for x in range(3)] == [False, True, False]
    for x, y in ((3, 0), (0, 3), (-1, 0), (0, -1)):
        with pytest.raises(IndexError):
            diagonal.is_dark(x, y)
    with pytest.raises(ValueError, match="3x3 matrix has 2 bytes"):
        qrglue.QrMatrix(3, bytes(3))
    with pytest.raises(AttributeError):
        diagonal.width = 4  # type: ignore[misc]  # frozen
    assert diagonal == qrglue.QrMatrix(3, bytes([0b10001000, 0b10000000])) and hash(diagonal)
    matrix = qrglue.matrix("hello")
    # The top-left finder pattern, where the standard puts it: a dark ring and a dark 3x3 core.
    finder = [[matrix.is_dark(x, y) for x in range(7)] for y in range(7)]
    assert finder == [[x in (0, 6) or y in (0, 6) or (2 <= x <= 4 and 2 <= y <= 4) for x in range(7)] for y in range(7)]


@pytest.mark.parametrize("options", [{}, {"scale": 2, "dark": "#336699", "light": "#fff0"}, {"ec_level": "high"}])
def test_data_uris_hold_exactly_the_png_and_the_svg(gen: Any, options: dict[str, Any]) -> None:
    """png_data_uri / svg_data_uri decode (base64) to png()'s bytes and
    svg()'s UTF-8, on every path, on the instance and module functions."""
    text = "https://example.com/å"
    png, svg = gen.png(text, **options), gen.svg(text, **options)
    png_uri, svg_uri = gen.png_data_uri(text, **options), gen.svg_data_uri(text, **options)
    png_head, svg_head = "data:image/png;base64,", "data:image/svg+xml;base64,"
    assert png_uri.startswith(png_head) and svg_uri.startswith(svg_head)
    assert base64.b64decode(png_uri[len(png_head):], validate=True) == png
    assert base64.b64decode(svg_uri[len(svg_head):], validate=True) == svg.encode("utf-8")
    for module in (qrglue, qrglue.raw, qrglue.native):
        assert (module.png_data_uri(text, **options), module.svg_data_uri(text, **options)) == (png_uri, svg_uri)
    # Errors are png's and svg's own.
    for uri in (gen.png_data_uri, gen.svg_data_uri):
        with pytest.raises(qrglue.QrError, match="dark must be a colour"):
            uri(text, dark="red")
        with pytest.raises(qrglue.QrError, match="text is empty"):
            uri("", **options)
