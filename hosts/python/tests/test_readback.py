"""Every text reads back as itself in a QR reader, on every Python path, and
every binary payload as its bytes.

The reader is zxing-cpp, and what is compared is its decoded *text*, what a
person's phone shows, not the raw bytes: a symbol that declares Shift-JIS
Kanji for UTF-8 bytes decodes to the right bytes and the wrong text (the bug
guest/core/UPSTREAM.md describes). Every path gives the same PNG (asserted
here too), so each distinct PNG is read once. The matrix and the text styles
are read back against the PNG's pixels. A binary payload (a data_hex case,
bytes that are not UTF-8) is compared with the reader's *bytes*: it has no
text to show.
"""

from __future__ import annotations

import hashlib
import io
import unicodedata
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

import qrglue
from conftest import CASES, ECI_UTF8_PREFIX, EXPECTED, PATHS, read_code, reader_bytes, reader_eci_prefix, reader_text
from corpus import case_input, case_options, case_text
from qrglue import TEXT_STYLES, QrError


@pytest.fixture(scope="module")
def generators() -> dict[str, Any]:
    """One generator per path, for the whole module."""
    return {name: make() for name, make in sorted(PATHS.items())}


def readable(text: str) -> bool:
    """A valid Unicode text without control characters (zxing rewrites some
    of those: its text is for display); lone surrogates are invalid-text."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return not any(unicodedata.category(ch) == "Cc" for ch in text)


# The corpus cases a reader can show: images (not errors) of readable texts.
# The 4096-pixel images are left to the smaller cases of the same texts:
# decoding 16 MP adds seconds and reads no differently.
READBACK_CASES = [
    c for c in CASES
    if "data_hex" not in c and "error" not in EXPECTED[c["id"]] and readable(case_text(c))
    and case_options(c).get("min_size", 200) <= 1024
]


def test_corpus_has_the_scripts_that_once_read_as_mojibake() -> None:
    ids = {c["id"] for c in READBACK_CASES}
    assert {"script-zh-sentence", "script-ja-kanji", "script-ja-kana", "script-ja-quotes",
            "script-ja-sentence", "unicode-supplementary-planes", "unicode-cjk"} <= ids
    assert len(READBACK_CASES) > 150


@pytest.mark.parametrize("case", READBACK_CASES, ids=[c["id"] for c in READBACK_CASES])
def test_corpus_text_reads_back(generators: dict[str, Any], case: dict[str, Any]) -> None:
    text, options = case_text(case), case_options(case)
    pngs = {name: gen.png(text, **options) for name, gen in generators.items()}
    assert len(set(pngs.values())) == 1, f"paths differ: {sorted(pngs)}"
    png = next(iter(pngs.values()))
    assert hashlib.sha256(png).hexdigest() == EXPECTED[case["id"]]["png_sha256"]
    assert reader_text(png) == text
    # ECI designator 26 (UTF-8) exactly when the case asks for it.
    if not options.get("micro"):
        assert reader_eci_prefix(png) == (ECI_UTF8_PREFIX if options.get("eci") else b"]Q1")


def test_corpus_has_eci_cases() -> None:
    assert len([c for c in READBACK_CASES if case_options(c).get("eci")]) >= 10


def test_eci_makes_a_reader_decode_the_bytes_as_utf8() -> None:
    # Latin-1 bytes: without ECI zxing-cpp guesses ISO-8859-1 ("héllo"); under
    # ECI 26 it decodes them as UTF-8, as declared (0xe9 alone is no UTF-8).
    latin1 = "héllo".encode("latin-1")
    assert reader_text(qrglue.png(latin1)) == "héllo"
    assert reader_text(qrglue.png(latin1, eci=True)) == "h\ufffdllo"
    assert reader_text(qrglue.png("héllo", eci=True)) == "héllo"


# Scripts a phone meets every day, by code point range: the property draws
# texts mixing them with ASCII letters, digits, spaces and punctuation.
SCRIPTS = {
    "cjk": (0x4E00, 0x9FFF), "hiragana": (0x3041, 0x3096), "katakana": (0x30A1, 0x30FA),
    "cjk-punctuation": (0x3001, 0x3011), "fullwidth": (0xFF01, 0xFF5E), "hangul": (0xAC00, 0xD7A3),
    "cyrillic": (0x0410, 0x044F), "greek": (0x0391, 0x03C9), "arabic": (0x0621, 0x064A),
    "hebrew": (0x05D0, 0x05EA), "devanagari": (0x0905, 0x0939), "thai": (0x0E01, 0x0E30),
    "latin-1": (0x00C0, 0x00FF), "emoji": (0x1F600, 0x1F64F), "symbols": (0x2600, 0x26FF),
}
ASCII = st.sampled_from("abcXYZ0123456789 .,:/?-_")
CHARS = st.one_of(ASCII, *(st.integers(lo, hi).map(chr).filter(lambda c: unicodedata.category(c) != "Cn")
                           for lo, hi in SCRIPTS.values()))
TEXTS = st.lists(st.one_of(CHARS, st.lists(st.sampled_from("0123456789"), min_size=4, max_size=30).map("".join)),
                 min_size=1, max_size=60).map("".join)


@settings(max_examples=2000, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXTS, level=st.sampled_from(["low", "medium", "quartile", "high"]))
def test_any_script_reads_back(generators: dict[str, Any], text: str, level: str) -> None:
    png = generators["native"].png(text, ec_level=level)
    assert generators["component"].png(text, ec_level=level) == generators["raw"].png(text, ec_level=level) == png
    assert reader_text(png) == text


# The corpus's binary payloads (data_hex): each PNG is golden on every path
# and reads back as exactly its bytes (the Rust and Node hosts read them the
# same way: hosts/rust/tests/host/readback.rs, hosts/node/tests/readback.test.js).
PAYLOAD_CASES = [c for c in CASES if "data_hex" in c and "error" not in EXPECTED[c["id"]]]


def test_every_corpus_payload_reads_back_as_its_bytes_on_every_path(generators: dict[str, Any]) -> None:
    assert len(PAYLOAD_CASES) >= 15, len(PAYLOAD_CASES)
    for case in PAYLOAD_CASES:
        data, options = case_input(case), case_options(case)
        assert isinstance(data, bytes)
        pngs = {name: gen.png(data, **options) for name, gen in generators.items()}
        for name, png in pngs.items():
            assert hashlib.sha256(png).hexdigest() == EXPECTED[case["id"]]["png_sha256"], (case["id"], name)
        png = pngs["native"]
        assert reader_bytes(png) == data, case["id"]
        if not options.get("micro"):
            assert reader_eci_prefix(png) == (ECI_UTF8_PREFIX if options.get("eci") else b"]Q1"), case["id"]
        assert read_code(png)[1] == ("MicroQRCode" if options.get("micro") else "QRCode"), case["id"]


# Bytes that are no UTF-8 text: ff fe (a UTF-16 byte order mark), and
# ed a0 80, a lone surrogate as WTF-8 would write it (a text call refuses
# that surrogate: invalid-text). As a payload each makes a code (never
# invalid-text) on every path, in every output, that reads back as exactly
# those bytes.
NOT_UTF8 = [b"\xff\xfe", b"\xed\xa0\x80", b"hi\xff\x00\xc3", b"\xc3\x28\xa0\xa1\xe2\x28"]


@pytest.mark.parametrize("data", NOT_UTF8, ids=[data.hex() for data in NOT_UTF8])
def test_bytes_that_are_not_utf8_make_a_code_that_reads_back_as_those_exact_bytes_on_every_path(
        generators: dict[str, Any], data: bytes) -> None:
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    pngs = {name: gen.png(data) for name, gen in generators.items()}
    assert len(set(pngs.values())) == 1, f"paths differ: {sorted(pngs)}"
    for name, gen in generators.items():
        assert gen.matrix(data).width == 21, name
        assert gen.svg(data).rstrip().endswith("</svg>"), name
        for style in TEXT_STYLES:
            assert gen.text(data, style=style).endswith("\n"), (name, style)
    assert reader_bytes(pngs["native"]) == data
    # The same bytes decoded as WTF-8 would: a lone surrogate, which a text call refuses.
    for name, gen in generators.items():
        with pytest.raises(QrError) as info:
            gen.png("\ud800")
        assert info.value.kind == "invalid-text", name


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.one_of(st.binary(min_size=1, max_size=120), st.binary(min_size=1, max_size=120),
                      st.binary(min_size=1, max_size=120), st.binary(min_size=1, max_size=1200)),
       level=st.sampled_from(["low", "medium", "quartile", "high"]))
def test_arbitrary_bytes_read_back_as_themselves(generators: dict[str, Any], data: bytes, level: str) -> None:
    png = generators["native"].png(data, ec_level=level)
    assert reader_bytes(png) == data


HALF_BLOCKS = {" ": (False, False), "\u2580": (True, False), "\u2584": (False, True), "\u2588": (True, True)}


def grid_from_half_blocks(drawn: str, size: int, ink_is_dark: bool) -> list[list[bool]]:
    """The size x size grid (True is dark) a half-blocks text draws: line k
    holds rows 2k (upper half) and 2k+1 (lower half, beyond the grid when
    size is odd: then it must carry no ink)."""
    lines = drawn.split("\n")
    assert lines.pop() == "" and len(lines) == (size + 1) // 2
    grid: list[list[bool]] = [[] for _ in range(len(lines) * 2)]
    for k, line in enumerate(lines):
        assert len(line) == size
        for char in line:
            upper, lower = HALF_BLOCKS[char]
            grid[2 * k].append(upper == ink_is_dark)
            grid[2 * k + 1].append(lower == ink_is_dark)
    if size % 2:
        assert all(HALF_BLOCKS[char][1] is False for char in lines[-1])  # no ink past the grid
        grid.pop()
    return grid


def grid_from_ascii(drawn: str, size: int) -> list[list[bool]]:
    lines = drawn.split("\n")
    assert lines.pop() == "" and len(lines) == size
    cells = [[line[i:i + 2] for i in range(0, len(line), 2)] for line in lines]
    assert all(len(row) == size and set(row) <= {"##", "  "} for row in cells)
    return [[cell == "##" for cell in row] for row in cells]


def with_quiet_zone(matrix: Any, zone: int) -> list[list[bool]]:
    size = matrix.width + 2 * zone
    light = [False] * size
    return [light] * zone + [[False] * zone + row + [False] * zone for row in matrix.rows()] + [light] * zone


@pytest.mark.parametrize("text, options", [
    ("https://www.reddit.com/r/rustjerk/top/?t=all", {"ec_level": "medium", "min_size": 100, "quiet_zone": 2}),
    ("二维码 🦀", {"ec_level": "high", "quiet_zone": 1}),        # odd grid: the last line's lower half is past it
    ("0123456789", {"quiet_zone": 0}),
    ("x" * 300, {"ec_level": "quartile", "min_size": 400, "quiet_zone": 4}),
])
def test_the_matrix_and_the_text_are_the_pngs_modules_on_every_path(generators: dict[str, Any], text: str,
                                                                   options: dict[str, Any]) -> None:
    """The matrix every path returns is what its PNG shows (each module a
    block of pixels inside the quiet zone), each text style draws the same
    modules with the quiet zone around them, and the matrix drawn by a
    renderer of our own reads back: a custom renderer draws the right code."""
    zone = options["quiet_zone"]
    for name, gen in generators.items():
        matrix = gen.matrix(text, **options)
        png = gen.png(text, **options)
        image = Image.open(io.BytesIO(png)).convert("L")
        across = matrix.width + 2 * zone
        module = image.width // across
        assert image.size == (module * across, module * across), name
        pixels = [[image.getpixel(((x + zone) * module + module // 2, (y + zone) * module + module // 2)) == 0
                   for x in range(matrix.width)] for y in range(matrix.width)]
        assert pixels == matrix.rows(), name
        grid = with_quiet_zone(matrix, zone)
        assert grid_from_ascii(gen.text(text, style="ascii", **options), across) == grid, name
        assert grid_from_half_blocks(gen.text(text, style="half-blocks", **options), across, True) == grid, name
        assert grid_from_half_blocks(gen.text(text, style="half-blocks-inverted", **options), across, False) == grid
        assert reader_text(png) == text
    # Our own renderer: 3 pixels a module, a 4-module quiet zone, from is_dark alone.
    size = (matrix.width + 8) * 3
    drawn = Image.new("L", (size, size), 255)
    for y in range(matrix.width):
        for x in range(matrix.width):
            if matrix.is_dark(x, y):
                drawn.paste(0, ((x + 4) * 3, (y + 4) * 3, (x + 5) * 3, (y + 5) * 3))
    encoded = io.BytesIO()
    drawn.save(encoded, format="PNG")
    assert reader_text(encoded.getvalue()) == text


@pytest.mark.parametrize("options, dark, light", [
    ({"dark": "#336699", "light": "#eeeeee"}, (0x33, 0x66, 0x99, 255), (0xEE, 0xEE, 0xEE, 255)),
    ({"dark": "#336699", "light": "#fff0"}, (0x33, 0x66, 0x99, 255), (255, 255, 255, 0)),
    ({"dark": "#c00", "light": "#fff", "scale": 3}, (0xCC, 0, 0, 255), (255, 255, 255, 255)),
])
def test_coloured_png_has_the_colours_and_reads_back_on_every_path(generators: dict[str, Any],
                                                                   options: dict[str, Any], dark: tuple[int, ...],
                                                                   light: tuple[int, ...]) -> None:
    """A coloured PNG is a two-entry palette (tRNS when a colour is not
    opaque): its pixels are exactly `dark` on the dark modules and `light`
    elsewhere, and a reader (on white, for the transparent one) reads it."""
    text = "https://example.com/colours"
    pngs = {name: gen.png(text, **options) for name, gen in generators.items()}
    assert len(set(pngs.values())) == 1, "every path gives the same bytes"
    png = next(iter(pngs.values()))
    image = Image.open(io.BytesIO(png))
    assert image.mode == "P" and len(image.getpalette() or []) // 3 == 2
    assert ("transparency" in image.info) == (light[3] < 255 or dark[3] < 255)
    rgba = image.convert("RGBA")
    matrix = generators["native"].matrix(text, **options)
    zone = 4
    across = matrix.width + 2 * zone
    module = rgba.width // across
    assert rgba.size == (module * across, module * across)
    if "scale" in options:
        assert module == options["scale"]
    for y in range(across):
        for x in range(across):
            inside = zone <= x < zone + matrix.width and zone <= y < zone + matrix.width
            is_dark = inside and matrix.is_dark(x - zone, y - zone)
            pixel = rgba.getpixel((x * module + module // 2, y * module + module // 2))
            assert pixel == (dark if is_dark else light), (x, y)
    assert {color for _, color in rgba.getcolors() or []} == {dark, light}
    on_white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
    on_white.alpha_composite(rgba)
    encoded = io.BytesIO()
    on_white.convert("RGB").save(encoded, format="PNG")
    assert reader_text(encoded.getvalue()) == text


@pytest.mark.parametrize("scale, quiet_zone", [(1, 4), (2, 0), (7, 2), (20, 16)])
def test_scale_sizes_the_image(generators: dict[str, Any], scale: int, quiet_zone: int) -> None:
    """(width + 2 * quiet zone) * scale pixels, whatever min_size says."""
    text = "scale"
    for name, gen in generators.items():
        width = gen.matrix(text).width
        for min_size in (1, 200, 4096):
            png = gen.png(text, scale=scale, quiet_zone=quiet_zone, min_size=min_size)
            side = (width + 2 * quiet_zone) * scale
            assert Image.open(io.BytesIO(png)).size == (side, side), (name, min_size)
        if scale >= 2:
            assert reader_text(gen.png(text, scale=scale, quiet_zone=max(quiet_zone, 1))) == text


# --- the symbol options: what a reader sees -----------------------------------

# (text, options, the version and level a reader must report); M1 detects errors only.
MICRO_READBACK: list[Any] = [
    ("12345", {}, "M1", ""),
    ("HELLO", {}, "M2", "L"),
    ("0123456789", {"version": 3, "mask": 1}, "M3", "L"),  # stock qrcode's M3-L never read (kennytm/qrcode-rust#90)
    ("hello", {"ec_level": "medium"}, "M3", "M"),
    ("héllo wörld", {"version": 4, "mask": 3}, "M4", "L"),
    ("hi there", {"ec_level": "quartile", "mask": 0}, "M4", "Q"),
    ("123", {"boost_ec": True, "min_version": 2}, "M2", "M"),
]


@pytest.mark.parametrize("text, options, version, level", MICRO_READBACK,
                         ids=[f"{v}-{t}" for t, _, v, _ in (c.values if hasattr(c, "values") else c
                                                            for c in MICRO_READBACK)])
def test_micro_qr_reads_back_on_every_path(generators: dict[str, Any], text: str, options: dict[str, Any],
                                           version: str, level: str) -> None:
    pngs = {name: gen.png(text, micro=True, **options) for name, gen in generators.items()}
    assert len(set(pngs.values())) == 1, "every path gives the same bytes"
    png = next(iter(pngs.values()))
    read_text, symbology, read_version, mask, read_level = read_code(png)
    assert (read_text, symbology, read_version) == (text, "MicroQRCode", version)
    assert read_level == level or (version == "M1" and read_level in ("", "L"))  # M1: no level to report
    if "mask" in options:
        assert mask == options["mask"]
    # The matrix is what the PNG shows (the module grid with its quiet zone).
    matrix = generators["native"].matrix(text, micro=True, **options)
    assert matrix.width == 9 + 2 * int(version[1])
    image = Image.open(io.BytesIO(png)).convert("L")
    module = image.width // (matrix.width + 8)
    pixels = [[image.getpixel(((x + 4) * module + module // 2, (y + 4) * module + module // 2)) == 0
               for x in range(matrix.width)] for y in range(matrix.width)]
    assert pixels == matrix.rows()


@pytest.mark.parametrize("text, options, version, level", [
    ("https://example.com", {"version": 2}, 2, "L"),
    ("https://example.com", {"version": 7, "mask": 0}, 7, "L"),
    ("https://example.com", {"version": 12, "mask": 6, "ec_level": "high"}, 12, "H"),
    ("二维码 🦀", {"version": 25, "mask": 3}, 25, "L"),
    ("https://example.com", {"min_version": 9, "mask": 7}, 9, "L"),
    ("https://example.com", {"boost_ec": True}, 2, "Q"),  # 19 bytes: version 2 holds 22 at quartile, 16 at high
    ("https://example.com", {"boost_ec": True, "version": 5, "mask": 1}, 5, "H"),
    ("0123456789" * 20, {"version": 40, "mask": 5, "scale": 2}, 40, "L"),
])
def test_fixed_versions_and_masks_read_back(generators: dict[str, Any], text: str, options: dict[str, Any],
                                            version: int, level: str) -> None:
    pngs = {name: gen.png(text, **options) for name, gen in generators.items()}
    assert len(set(pngs.values())) == 1, "every path gives the same bytes"
    png = next(iter(pngs.values()))
    assert generators["native"].matrix(text, **options).width == 17 + 4 * version
    read_text, symbology, read_version, mask, read_level = read_code(png)
    assert (read_text, symbology, read_version, read_level) == (text, "QRCode", str(version), level)
    if "mask" in options:
        assert mask == options["mask"]
