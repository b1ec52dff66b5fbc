"""The SVG options (WIT `svg-options`: `view_box_only`, `title`, `svg_class`)
on every path: the defaults give the plain document, each option's effect is
the same everywhere (and the corpus's svg-* cases are golden in
test_golden.py), a hostile title reads back exactly through the stdlib's XML
parsers, every refusal is the contract's message in the contract's order (the
host's own checks first, then the guest's, as this file's oracle words them),
an oversized string never enters a guest, and only svg / svg_data_uri take them.
Test names follow hosts/node/tests/svg-options.test.js where the test is the same."""

from __future__ import annotations

import base64
import re
import unicodedata
import xml.dom.minidom
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import qrglue
import qrglue.native
import qrglue.raw
from conftest import PATHS, WASM_PATHS, checked
from qrglue import QrError, _common
from qrglue._common import SvgOptions

SVG_NS = "{http://www.w3.org/2000/svg}"
CLASS_MESSAGE = _common.CLASS_TEMPLATE
TITLE_MOST, CLASS_MOST = _common.SVG_TITLE_BYTES_BOUNDS[1], _common.SVG_CLASS_BYTES_BOUNDS[1]
_NOT_XML_CHAR = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_CLASS_NAME = re.compile("[A-Za-z0-9_-]+")


def expected_refusal(title: str | None, svg_class: str | None) -> str | None:
    """The test's oracle for strs UTF-8 can encode: the host's checks first
    (a title, then a class, over its bound in UTF-8 bytes: never copied into
    a guest), then the guest's `SvgOptions::validate` (the title's XML 1.0
    characters, then CSS class names separated by single spaces); None when
    all pass. Written here, not in the package: the guest alone checks what
    the strings hold."""
    for option, value, most in (("title", title, TITLE_MOST), ("class", svg_class, CLASS_MOST)):
        if value is not None and len(value.encode("utf-8")) > most:
            return _common.TOO_LONG_TEMPLATE.format(option=option, max=most, value=len(value.encode("utf-8")))
    if title is not None:
        found = _NOT_XML_CHAR.search(title)
        if found is not None:
            index = len(title[:found.start()].encode("utf-8"))
            return _common.NOT_XML_CHAR_TEMPLATE.format(option="title", char=f"U+{ord(found.group()):04X}", index=index)
    if svg_class is not None and not all(_CLASS_NAME.fullmatch(name) for name in svg_class.split(" ")):
        return CLASS_MESSAGE.format(value=rust_debug_str(svg_class))
    return None


# Rust's Unicode data (16.0) where `unicodedata`'s (14.0 in Python 3.11)
# reads otherwise: the grapheme extenders that are no Mn or Me (spacing marks
# and two halfwidth sound marks: Rust escapes them), and a mark that is no
# longer one (Rust prints it). Code points newer than Python's data are the
# one gap left: Rust may print what Python calls unassigned.
_RUST_EXTENDERS = frozenset(chr(c) for c in (
    0x9BE, 0x9D7, 0xB3E, 0xB57, 0xBBE, 0xBD7, 0xCC0, 0xCC2, 0xCC7, 0xCC8, 0xCCA, 0xCCB, 0xCD5, 0xCD6, 0xD3E, 0xD57,
    0xDCF, 0xDDF, 0x1715, 0x1734, 0x1B35, 0x1B3B, 0x1B3D, 0x1B43, 0x1B44, 0x1BAA, 0x1BF2, 0x1BF3, 0x302E, 0x302F,
    0xA953, 0xA9C0, 0xFF9E, 0xFF9F, 0x111C0, 0x11235, 0x1133E, 0x1134D, 0x11357, 0x114B0, 0x114BD, 0x115AF, 0x116B6,
    0x11930, 0x1193D, 0x16FF0, 0x16FF1, 0x1D165, 0x1D166, 0x1D16D, 0x1D16E, 0x1D16F, 0x1D170, 0x1D171, 0x1D172))
_RUST_PRINTED_MARKS = frozenset(("\U0001171e",))
# How Rust's `Debug` for str writes these characters (`char::escape_debug`).
_RUST_ESCAPES = {"\0": "\\0", "\t": "\\t", "\r": "\\r", "\n": "\\n", "\\": "\\\\", '"': '\\"'}


def rust_debug_str(value: str) -> str:
    """`value` as Rust's `{:?}` quotes a str, as the guest's class message
    shows it: in double quotes, `"` and `\\` backslashed, NUL, tab, CR and LF
    as `\\0 \\t \\r \\n`, and as `\\u{hex}` every character Rust does not
    print as it is: the non-printable ones (Unicode's Other and Separator
    categories but the space, as `str.isprintable` reads them) and the
    grapheme extenders (the marks Mn and Me, and `_RUST_EXTENDERS`). Exact
    for ASCII, and for every code point Python's Unicode data assigns
    (tests/test_svg_options.py compares it with the core for each); one
    newer than that data is escaped here, where Rust may print it."""
    if value.isascii() and value.isprintable() and '"' not in value and "\\" not in value:
        return f'"{value}"'
    out = []
    for c in value:
        escape = _RUST_ESCAPES.get(c)
        if escape is not None:
            out.append(escape)
        elif c.isprintable() and (c.isascii() or c in _RUST_PRINTED_MARKS
                                  or (unicodedata.category(c) not in ("Mn", "Me") and c not in _RUST_EXTENDERS)):
            out.append(c)
        else:
            out.append(f"\\u{{{ord(c):x}}}")
    return '"' + "".join(out) + '"'


@pytest.fixture(scope="module")
def generators() -> dict[str, Any]:
    return {name: make() for name, make in sorted(PATHS.items())}


def attempt(render: Any, *args: Any, **options: Any) -> Any:
    try:
        return render(*args, **options)
    except QrError as e:
        return (e.kind, str(e))


def on_every_path(generators: dict[str, Any], given_input: Any, **options: Any) -> Any:
    """The one answer every path gives (svg), asserted equal across paths."""
    found = {name: attempt(gen.svg, given_input, **options) for name, gen in generators.items()}
    first = next(iter(found.values()))
    assert all(answer == first for answer in found.values()), found
    return first


def root(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def test_the_defaults_are_the_plain_document_on_every_path(generators: dict[str, Any]) -> None:
    for given_input in ("https://example.com", b"\xff\x00 bytes"):
        plain = on_every_path(generators, given_input)
        assert on_every_path(generators, given_input, view_box_only=False, title=None, svg_class=None) == plain
        element = root(plain)
        assert element.get("width") and element.get("height") and element.get("class") is None
        assert element.find(f"{SVG_NS}title") is None
    assert (_common.DEFAULT_VIEW_BOX_ONLY, _common.DEFAULT_TITLE, _common.DEFAULT_CLASS) == (False, None, None)


def test_each_option_does_what_it_says_the_same_on_every_path_for_a_text_and_its_bytes_and_in_the_data_uri(
        generators: dict[str, Any]) -> None:
    text = "漢字です"
    plain = on_every_path(generators, text)
    view_box = on_every_path(generators, text, view_box_only=True)
    assert root(view_box).get("width") is None and root(view_box).get("height") is None
    assert root(view_box).get("viewBox") == root(plain).get("viewBox")
    titled = on_every_path(generators, text, title="Rust memes & <more>")
    assert root(titled).find(f"{SVG_NS}title").text == "Rust memes & <more>"  # type: ignore[union-attr]
    classed = on_every_path(generators, text, svg_class="qr qr-large")
    assert root(classed).get("class") == "qr qr-large"
    empty_title = on_every_path(generators, text, title="")
    assert "<title></title>" in empty_title
    everything = dict(view_box_only=True, title="t", svg_class="a_b c-1")
    full = on_every_path(generators, text, **everything)
    # Without its title, width/height and class, each document is the plain one.
    def strip(svg: str) -> str:
        svg = re.sub(r"<title>[^<]*</title>", "", svg)
        head, rest = svg.split("viewBox", 1)  # the root's width and height come before its viewBox
        svg = re.sub(r' (width|height)="\d+"', "", head) + "viewBox" + rest
        return re.sub(r' class="[^"]*"', "", svg)
    for document in (view_box, titled, classed, empty_title, full):
        assert strip(document) == strip(plain)
    # A text's UTF-8 as bytes gives the text's document, options and all.
    assert on_every_path(generators, text.encode("utf-8"), **everything) == full
    # The data URI carries the same document, on every path.
    for gen in generators.values():
        uri = gen.svg_data_uri(text, **everything)
        assert uri.startswith("data:image/svg+xml;base64,")
        assert base64.b64decode(uri.split(",", 1)[1]).decode("utf-8") == full
    # The module functions too.
    for module in (qrglue, qrglue.raw, qrglue.native):
        assert module.svg(text, **everything) == full
        assert module.svg_data_uri(text, **everything) == generators["native"].svg_data_uri(text, **everything)


HOSTILE_TITLES = [
    '</title><script>alert("x")</script>',
    "'\"&amp;<![CDATA[ x ]]>]]>&#0;",
    "line\r\nbreak\rcr\nlf\ttab  two spaces ",
    "".join(chr(c) for c in range(0x20, 0x7F)),  # all of printable ASCII
    "\u0080\u0085\u009f\u00a0\u2028\u2029\ud7ff\ue000\ufdd0\ufffd",  # C1 controls, separators, the BMP's ends
    "\U00010000\U0001f600\U0010ffff",  # astral planes
    " leading and trailing ",
    "漢字 & <kana> \u202e rtl",
]


def test_a_hostile_title_reads_back_exactly_through_an_xml_parser_on_every_path(generators: dict[str, Any]) -> None:
    for title in HOSTILE_TITLES:
        assert len(title.encode("utf-8")) <= 1024
        svg = on_every_path(generators, "hi", title=title)
        found = root(svg).find(f"{SVG_NS}title")
        assert found is not None and found.text == title, (title, svg[:300])
        # minidom (expat, like ElementTree) and the element count: no injected markup.
        document = xml.dom.minidom.parseString(svg.encode("utf-8"))
        titles = document.getElementsByTagName("title")
        assert len(titles) == 1 and "".join(getattr(node, "data", "") for node in titles[0].childNodes) == title
        assert not document.getElementsByTagName("script")
        assert next(child.tag for child in root(svg)) == f"{SVG_NS}title"


def title_char(c: str, at: int) -> str:
    return _common.NOT_XML_CHAR_TEMPLATE.format(option="title", char=f"U+{ord(c):04X}", index=at)


BAD = [
    ({"title": "abc\u0007"}, title_char("\u0007", 3)),
    ({"title": "é\u0000"}, title_char("\u0000", 2)),
    ({"title": "\u001f"}, title_char("\u001f", 0)),
    ({"title": "ok\ufffe"}, title_char("\ufffe", 2)),
    ({"title": "\U0001f600\uffff"}, title_char("\uffff", 4)),
    ({"title": "x" * 1025}, "title must be at most 1024 UTF-8 bytes, got 1025"),
    ({"title": "é" * 513}, "title must be at most 1024 UTF-8 bytes, got 1026"),
    ({"title": "\u0007" * 2000}, "title must be at most 1024 UTF-8 bytes, got 2000"),  # length first
    ({"svg_class": ""}, CLASS_MESSAGE.format(value='""')),
    ({"svg_class": "a  b"}, CLASS_MESSAGE.format(value='"a  b"')),
    ({"svg_class": " a"}, CLASS_MESSAGE.format(value='" a"')),
    ({"svg_class": "a "}, CLASS_MESSAGE.format(value='"a "')),
    ({"svg_class": "a\tb"}, CLASS_MESSAGE.format(value='"a\\tb"')),
    ({"svg_class": 'q"uo\\te'}, CLASS_MESSAGE.format(value='"q\\"uo\\\\te"')),
    ({"svg_class": "a.b"}, CLASS_MESSAGE.format(value='"a.b"')),
    ({"svg_class": "é"}, CLASS_MESSAGE.format(value='"é"')),
    ({"svg_class": "\u0000\n\r\u001b\u0301"}, CLASS_MESSAGE.format(value='"\\0\\n\\r\\u{1b}\\u{301}"')),
    ({"svg_class": "c" * 257}, "class must be at most 256 UTF-8 bytes, got 257"),
    ({"svg_class": "a\"b" * 100}, "class must be at most 256 UTF-8 bytes, got 300"),
    # The title before the class, the contract's order; a string over its bound (the host's) first.
    ({"title": "\u0001", "svg_class": "a  b"}, title_char("\u0001", 0)),
    ({"title": "\u0001", "svg_class": "c" * 300}, "class must be at most 256 UTF-8 bytes, got 300"),
    ({"title": "ok", "svg_class": "c" * 300}, "class must be at most 256 UTF-8 bytes, got 300"),
    # The host's own checks, in WIT order: view-box-only, title, class.
    ({"view_box_only": 1}, "view-box-only must be a boolean, got 1"),
    ({"view_box_only": None, "title": 5}, "view-box-only must be a boolean, got None"),
    ({"title": 5}, "title must be a string, got 5"),
    ({"title": b"bytes"}, "title must be a string, got b'bytes'"),
    ({"svg_class": ["a"]}, "class must be a string, got ['a']"),
    ({"title": 5, "svg_class": 7}, "title must be a string, got 5"),
    ({"title": "a\ud800b"}, "title contains a lone surrogate (not encodable as UTF-8)"),
    ({"svg_class": "\udfff"}, "class contains a lone surrogate (not encodable as UTF-8)"),
    ({"title": "\ud800" + "x" * 5000}, "title contains a lone surrogate (not encodable as UTF-8)"),
    ({"title": "\ud800", "svg_class": "a  b"}, "title contains a lone surrogate (not encodable as UTF-8)"),
    # A host check (type, surrogate) before the guest's check of a string.
    ({"title": "\u0007", "svg_class": "\ud800"}, "class contains a lone surrogate (not encodable as UTF-8)"),
]


@pytest.mark.parametrize("options, message", BAD)
def test_every_bad_title_and_class_is_invalid_options_with_the_contracts_message_on_every_path(
        generators: dict[str, Any], options: dict[str, Any], message: str) -> None:
    for given_input in ("hi", b"\xff"):
        assert on_every_path(generators, given_input, **options) == ("invalid-options", message)
        for gen in generators.values():
            assert attempt(gen.svg_data_uri, given_input, **options) == ("invalid-options", message)


def test_types_lone_surrogates_and_oversized_strings_the_hosts_answers_guest_memory_unchanged_on_every_path() -> None:
    huge = "x" * (100 * 1024 * 1024)  # 100 MB: would exhaust a guest's memory
    cases = [({"title": huge}, f"title must be at most 1024 UTF-8 bytes, got {len(huge)}"),
             ({"svg_class": huge[:10_000_000]}, "class must be at most 256 UTF-8 bytes, got 10000000"),
             ({"title": huge + "\ud800"}, "title contains a lone surrogate (not encodable as UTF-8)")]
    for name, make in sorted(WASM_PATHS.items()):
        gen = make()
        gen.svg("warm", title="t", svg_class="c")
        pages = gen.memory_pages()
        for options, message in cases:
            for given_input in ("hi", b"hi"):
                kind, found = attempt(gen.svg, given_input, **options)
                assert (kind, found) == ("invalid-options", message), name
        assert gen.memory_pages() == pages, f"{name}: guest memory grew"
    # The native path (no guest) gives the same answers.
    assert attempt(qrglue.native.svg, "hi", title=huge) == ("invalid-options", cases[0][1])
    assert attempt(qrglue.native.svg, "hi", title=huge + "\ud800") == ("invalid-options", cases[2][1])


def test_the_svg_options_host_checks_after_the_texts_the_guests_after_every_other_option(
        generators: dict[str, Any]) -> None:
    same = {"dark": "#123", "light": "#112233"}
    # What the guest checks: after the text and every other option.
    for bad in ({"title": "\u0007"}, {"svg_class": "a  b"}):
        assert on_every_path(generators, "", **bad) == ("empty-text", "text is empty")
        assert on_every_path(generators, b"", **bad) == ("empty-text", "text is empty")
        assert on_every_path(generators, "a\ud800", **bad) == ("invalid-text", _common.LONE_SURROGATE_MESSAGE)
        assert on_every_path(generators, "x" * 7090, **bad) == ("data-too-long", _common.DATA_TOO_LONG_MESSAGE)
        assert on_every_path(generators, "hi", min_size=0, **bad) == (
            "invalid-options", "min-size must be within 1..=4096, got 0")
        assert on_every_path(generators, "hi", version=41, **bad)[1].startswith("version must be within")
        assert on_every_path(generators, "hi", **same, **bad) == (
            "invalid-options", "dark and light must be different colours, both are #112233ff")
        assert on_every_path(generators, b"\xff", **same, **bad)[1].startswith("dark and light")
        # Before the guest's capacity check (data-too-long at this level): the core's order.
        kind, message = on_every_path(generators, "a" * 3000, ec_level="high", **bad)
        assert kind == "invalid-options" and not message.startswith("text"), message
    # What the host checks (a type, a lone surrogate, a string over its bound): after the text's own
    # host checks (invalid-text, data-too-long by length) and the options' host checks, before any of the guest's.
    host_cases: list[tuple[dict[str, Any], str]] = [
        ({"title": 5}, "title must be a string, got 5"),
        ({"title": "x" * 2000}, "title must be at most 1024 UTF-8 bytes, got 2000"),
        ({"svg_class": "c" * 300}, "class must be at most 256 UTF-8 bytes, got 300"),
        ({"view_box_only": "yes"}, "view-box-only must be a boolean, got 'yes'"),
        ({"title": "\ud800"}, "title contains a lone surrogate (not encodable as UTF-8)")]
    guest_errors: list[tuple[Any, dict[str, Any]]] = [
        ("", {}), (b"", {}), ("hi", {"min_size": 0}), ("hi", {"version": 41}), ("hi", same),
        ("a" * 3000, {"ec_level": "high"})]
    for host_bad, refusal in host_cases:
        assert on_every_path(generators, "a\ud800", **host_bad) == ("invalid-text", _common.LONE_SURROGATE_MESSAGE)
        assert on_every_path(generators, "x" * 7090, **host_bad) == ("data-too-long", _common.DATA_TOO_LONG_MESSAGE)
        assert on_every_path(generators, "hi", dark="red", **host_bad)[1].startswith("dark must be a colour")
        for given_input, options in guest_errors:
            assert on_every_path(generators, given_input, **options, **host_bad) == ("invalid-options", refusal)


def test_only_svg_and_svg_data_uri_take_the_svg_options(generators: dict[str, Any]) -> None:
    # As `style` is text's alone: the other calls have no such keyword (an unknown option).
    for gen in generators.values():
        for render in (gen.png, gen.png_data_uri, gen.matrix, gen.text):
            for option in ({"view_box_only": True}, {"title": "t"}, {"svg_class": "c"}):
                with pytest.raises(QrError, match=rf'^unknown option "{next(iter(option))}" for '):
                    render("hi", **option)
        with pytest.raises(QrError, match=r'^unknown option "class" for svg\(\)'):
            gen.svg("hi", **{"class": "c"})  # WIT's name is `svg_class` here: `class` is a keyword


@settings(max_examples=200, derandomize=True, deadline=None, database=None)
@given(title=st.none() | st.text(st.characters(exclude_categories=["Cs"]), max_size=600),
       svg_class=st.none() | st.text(st.sampled_from('ab- _"\\\t\x00é1'), max_size=300),
       view_box_only=st.booleans())
def test_random_titles_and_classes_every_path_agrees_with_the_oracle(
        title: str | None, svg_class: str | None, view_box_only: bool) -> None:
    generators = RANDOM_GENERATORS
    answer = on_every_path(generators, "hi", view_box_only=view_box_only, title=title, svg_class=svg_class)
    expected = expected_refusal(title, svg_class)
    if expected is None:
        assert isinstance(answer, str)
        if title is not None:
            assert root(answer).find(f"{SVG_NS}title").text == (title or None)  # type: ignore[union-attr]
    else:
        assert answer == ("invalid-options", expected)


RANDOM_GENERATORS = {name: make() for name, make in sorted(PATHS.items())}


def test_rust_debug_str_is_the_cores_for_every_code_point_pythons_unicode_data_assigns() -> None:
    # The native path is the core: its class message quotes the class with
    # Rust's `{:?}`. Every code point Python's Unicode data assigns (the
    # others are the documented gap), 64 to a call (at most 256 bytes, the
    # class's bound: a longer class is refused by its length).
    chars = [chr(c) for c in range(0x110000)
             if not 0xD800 <= c < 0xE000 and unicodedata.category(chr(c)) != "Cn"]
    for start in range(0, len(chars), 64):
        value = "".join(chars[start:start + 64])
        with pytest.raises(QrError) as info:
            qrglue.native.svg("x", svg_class=value)
        assert str(info.value) == CLASS_MESSAGE.format(value=rust_debug_str(value)), start


def test_raw_the_svg_strings_buffer_is_the_guests_to_free_refused_or_not() -> None:
    # Every call hands the guest one buffer (title then class), which it frees
    # whatever the outcome: thousands of calls with a 1 KB title leave the
    # guest's memory as it was.
    for glue in ("fast", "stock"):
        gen = qrglue.raw.Generator(glue=glue)
        calls = gen._calls
        ok, bad = "t" * 1000, "t" * 999 + "\u0007"
        for _ in range(20):
            gen.svg("hi", title=ok, svg_class="c")
            # Past the host's checks: the guest refuses.
            assert attempt(calls.svg, "hi", b"hi", checked(), SvgOptions(False, bad, "c"))[0] == "invalid-options"
        pages = gen.memory_pages()
        for i in range(3000):
            if i % 3 == 0:
                assert attempt(calls.svg, "hi", b"hi", checked(), SvgOptions(True, bad, "c"))[0] == "invalid-options"
            elif i % 3 == 1:
                assert attempt(calls.svg_bytes, b"", checked(), SvgOptions(False, ok, "a  b"))[0] == "empty-text"
            else:
                assert gen.svg(b"\xff", title=ok, svg_class="c c").startswith("<?xml")
        assert gen.memory_pages() == pages, glue


def test_svg_flags_and_the_abi_version_are_the_contracts() -> None:
    from qrglue import _rawcore
    assert _common.RAW_ABI_VERSION == 7 and _common.RAW_SVG_FLAGS == {"view-box-only": 1, "has-title": 2,
                                                                       "has-class": 4}
    assert _rawcore.EXPECTED_SIGNATURES["qr_svg"] == _rawcore.EXPECTED_SIGNATURES["qr_svg_bytes"] == (17, 1)
    assert qrglue.raw.Generator()._calls._core.func("qr_abi_version")() == 7  # type: ignore[attr-defined]
