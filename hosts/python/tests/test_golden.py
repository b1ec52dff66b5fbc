"""Golden vectors (tests/vectors) on every path of the path table (png, svg,
the matrix and the text in every style; a data_hex case's payload as bytes),
the module functions, the defaults, a text's UTF-8 as a binary payload, and
an independent reader (zxing-cpp) on exact texts."""

from __future__ import annotations

import base64
import functools
import hashlib
import io
from collections.abc import Callable
from typing import Any

import pytest
import zxingcpp
from PIL import Image

import qrglue
import qrglue.native
import qrglue.raw
from conftest import CASES, EXPECTED, REFERENCE_URL_CASE
from corpus import case_input, case_options, case_svg_options, case_text, matrix_sha256
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
    text, options = case_input(case), case_options(case)
    svg = functools.partial(gen.svg, **case_svg_options(case))  # svg alone takes the SVG options
    if "error" in expected:
        renders = [gen.png, svg, gen.matrix, gen.text,
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
        assert sha256(svg(text, **options).encode("utf-8")) == expected["svg_sha256"]
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
    # A binary payload too: the data URIs take what png() and svg() take.
    for payload in (text.encode(), bytearray(b"\xff\xfe\x00"), memoryview(b"\xed\xa0\x80")):
        assert gen.png_data_uri(payload, **options) == png_head + base64.b64encode(
            gen.png(payload, **options)).decode()
        assert gen.svg_data_uri(payload, **options) == svg_head + base64.b64encode(
            gen.svg(payload, **options).encode()).decode()
    assert gen.png_data_uri(text.encode(), **options) == png_uri
    # Errors are png's and svg's own.
    for uri in (gen.png_data_uri, gen.svg_data_uri):
        with pytest.raises(qrglue.QrError, match="dark must be a colour"):
            uri(text, dark="red")
        with pytest.raises(qrglue.QrError, match="text is empty"):
            uri("", **options)
        with pytest.raises(qrglue.QrError, match="text is empty"):
            uri(b"", **options)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


# A text's code is its UTF-8's code (wit/qr.wit: png-bytes(utf8(t), o) is
# png(t, o)): every corpus text but the huge ones and the lone surrogates
# (which have no UTF-8) gives, as bytes, exactly the text's output in every
# output, or exactly its error.
UTF8_CASES = [c for c in CASES if "data_hex" not in c and "text_repeat" not in c and _encodable(case_text(c))
              and case_options(c).get("min_size", 200) <= 1024 and (case_options(c).get("scale") or 1) <= 10]


def _attempt(render: Any, *args: Any, **options: Any) -> Any:
    try:
        return render(*args, **options)
    except QrError as e:
        return (e.kind, str(e))


def test_a_texts_utf8_as_bytes_gives_the_texts_output_for_every_output(gen: Any) -> None:
    assert len(UTF8_CASES) > 200, len(UTF8_CASES)
    for case in UTF8_CASES:
        text, options = case_text(case), case_options(case)
        data = text.encode("utf-8")
        for render in (gen.png, functools.partial(gen.svg, **case_svg_options(case)), gen.matrix):
            assert _attempt(render, data, **options) == _attempt(render, text, **options), case["id"]
        for style in qrglue.TEXT_STYLES:
            assert _attempt(gen.text, data, style=style, **options) == _attempt(gen.text, text, style=style,
                                                                                **options), (case["id"], style)


def test_a_payload_goes_to_the_bytes_generators_and_a_text_to_the_text_ones(
        gen: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # What each path calls: its glue's calls (the guest's exports), or the
    # native extension's functions.
    target = qrglue._native if isinstance(gen, qrglue.native.Generator) else gen._calls
    called: list[str] = []

    def spying(name: str) -> Callable[..., Any]:
        call = getattr(target, name)

        def spy(*args: Any) -> Any:
            called.append(name)
            return call(*args)
        return spy

    for name in ("png", "svg", "matrix", "text", "png_bytes", "svg_bytes", "matrix_bytes", "text_bytes"):
        monkeypatch.setattr(target, name, spying(name))
    gen.png("x"), gen.png(b"x"), gen.svg(bytearray(b"x")), gen.matrix(memoryview(b"x")), gen.text(b"x", style="ascii")
    gen.svg("x"), gen.matrix("x"), gen.text("x"), gen.png_data_uri(b"\xff"), gen.svg_data_uri("x")
    assert called == ["png", "png_bytes", "svg_bytes", "matrix_bytes", "text_bytes", "svg", "matrix", "text",
                      "png_bytes", "svg"]


def test_bytes_as_bytes_a_bytearray_or_a_memoryview_a_views_window_only(gen: Any) -> None:
    # bytes, a bytearray, a memoryview of either (read-only or not, signed or
    # char items, N-D), a subclass of bytes or bytearray, and of a view only
    # its window: the same payload is the same code, ref-02's.
    text = REFERENCE_URL_CASE["text"]
    data = text.encode("utf-8")
    padded = bytearray(b"A" * 5 + data + b"A" * 8)
    rows = next(n for n in range(2, len(data)) if len(data) % n == 0)
    forms: dict[str, Any] = {
        "bytes": data, "bytearray": bytearray(data), "memoryview": memoryview(data),
        "memoryview of a bytearray": memoryview(bytearray(data)),
        "read-only memoryview": memoryview(bytearray(data)).toreadonly(),
        "signed memoryview": memoryview(data).cast("b"), "char memoryview": memoryview(data).cast("c"),
        "2-D memoryview": memoryview(data).cast("B", (rows, len(data) // rows)),
        "window": memoryview(padded)[5:5 + len(data)],
        "bytes subclass": type("Payload", (bytes,), {})(data),
        "bytearray subclass": type("Buffer", (bytearray,), {})(data),
    }
    expected = EXPECTED["ref-02"]
    for form, payload in forms.items():
        assert sha256(gen.png(payload)) == expected["png_sha256"], form
        assert sha256(gen.svg(payload).encode("utf-8")) == expected["svg_sha256"], form
        assert matrix_sha256(gen.matrix(payload)) == expected["matrix_sha256"], form
        for style in qrglue.TEXT_STYLES:
            assert sha256(gen.text(payload, style=style).encode("utf-8")) == expected["text_sha256"][style], form
        assert gen.png_data_uri(payload) == "data:image/png;base64," + base64.b64encode(gen.png(text)).decode()
    # The input is read, never written.
    assert padded == bytearray(b"A" * 5 + data + b"A" * 8)
    assert forms["bytearray"] == data
