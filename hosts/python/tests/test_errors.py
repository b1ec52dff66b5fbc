"""Bad input on every path: every error kind with its message, range messages,
type errors, keyword-only options, bad text styles, the probes, binary
payloads' errors; and str/int/bytes subclasses that lie about themselves get
exactly the plain value's result. png, svg, matrix and text answer every bad
input alike."""

from __future__ import annotations

import array
import functools
import io
import re
from collections.abc import Callable
from typing import Any

import pytest

import qrglue
import qrglue.native
import qrglue.raw
from qrglue import QrError


@pytest.mark.parametrize("text, options, kind", [
    ("", {}, "empty-text"),
    ("", {"min_size": 0}, "empty-text"),                 # empty-text comes before the guest's invalid-options
    ("", {"min_size": "big"}, "invalid-options"),        # ...but after the host's: WIT cannot carry "big"
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
    answers = set()
    for render in every_output(gen):
        with pytest.raises(QrError) as info:
            render(text, **options)
        assert info.value.kind == kind
        assert isinstance(info.value, ValueError)
        answers.add(str(info.value))
    assert len(answers) == 1  # the same message from png, svg, matrix and text


def every_output(gen: Any) -> list[Callable[..., Any]]:
    """png, svg, matrix and text (default style and each style) of `gen`."""
    return [gen.png, gen.svg, gen.matrix, gen.text,
            *(functools.partial(gen.text, style=style) for style in qrglue.TEXT_STYLES)]


TEXT_STYLE_NAME = "text-style must be one of half-blocks, half-blocks-inverted, ascii, got {}"


@pytest.mark.parametrize("style, shown", [
    ("ultra", "'ultra'"), ("Ascii", "'Ascii'"), ("half_blocks", "'half_blocks'"), (" ascii", "' ascii'"),
    ("", "''"), ("\ud800", "'\\ud800'"), (0, "0"), (2, "2"), (None, "None"), (b"ascii", "b'ascii'"),
    (True, "True"), (["ascii"], "['ascii']"),
])
def test_bad_text_style_is_invalid_options_a_host_check_after_the_options_host_checks(
        gen: Any, style: Any, shown: str) -> None:
    message = TEXT_STYLE_NAME.format(shown)
    assert _outcome(gen.text, ("hello",), {"style": style}) == ("error", "invalid-options", message)
    # After the options' host checks: an option WIT cannot carry wins, whatever the style ...
    assert _outcome(gen.text, ("hello",), {"style": style, "ec_level": "ultra", "min_size": 0}) == _outcome(
        gen.png, ("hello",), {"ec_level": "ultra", "min_size": 0})
    # ... and before the guest's checks (docs/contract.md): a bound, an empty text.
    assert _outcome(gen.text, ("hello",), {"style": style, "quiet_zone": 17}) == ("error", "invalid-options", message)
    assert _outcome(gen.text, ("",), {"style": style}) == ("error", "invalid-options", message)
    # The text's own host checks come first.
    for text in ("\ud800", "x" * 7090):
        assert _outcome(gen.text, (text,), {"style": style}) == _outcome(gen.png, (text,), {})
    # A text fine for every option but too big for its EC level: the style is an
    # option, checked before the capacity (as a bad min-size is).
    assert _outcome(gen.text, ("a" * 3000,), {"style": style, "ec_level": "high"}) == (
        "error", "invalid-options", message)


def test_range_messages_name_the_option(gen: Any) -> None:
    with pytest.raises(QrError) as info:
        gen.png("x", min_size=5000)
    assert str(info.value) == info.value.message == "min-size must be within 1..=4096, got 5000"


# --- binary payloads: the same functions take bytes, a bytearray or a
# memoryview of bytes (the WIT *-bytes calls). Their errors are a text's:
# empty is empty-text, over 7089 bytes data-too-long (before any copy), then
# the options in the contract's order; never invalid-text. Any other input is
# a TypeError naming what is accepted. ---------------------------------------

PAYLOAD_TYPE = "text must be str or bytes-like (bytes, bytearray or memoryview), not {}"
MEMORYVIEW = "a memoryview payload must be C-contiguous bytes (format 'B', 'b' or 'c'), not {}"
DATA_TOO_LONG = "text does not fit in any QR code: it is over 7089 bytes, the most one holds"
# The guest's data-too-long for 2954 bytes in byte mode at level low: the limit hit, in bits.
AT_40_LOW_2954_BYTES = "text does not fit in a QR code at level low: it needs 23652 data bits, version 40 holds 23648"


def every_input_output(gen: Any) -> dict[str, Callable[..., Any]]:
    """Every public function that takes a text or a payload, by name."""
    return {"png": gen.png, "svg": gen.svg, "matrix": gen.matrix, "text": gen.text,
            "png_data_uri": gen.png_data_uri, "svg_data_uri": gen.svg_data_uri,
            **{f"text {style}": functools.partial(gen.text, style=style) for style in qrglue.TEXT_STYLES}}


def test_an_input_that_is_neither_a_text_nor_bytes_is_a_type_error_naming_what_is_accepted(gen: Any) -> None:
    wrong: list[tuple[Any, str]] = [
        (None, PAYLOAD_TYPE.format("NoneType")), (42, PAYLOAD_TYPE.format("int")),
        (4.2, PAYLOAD_TYPE.format("float")), (True, PAYLOAD_TYPE.format("bool")),
        ([104, 105], PAYLOAD_TYPE.format("list")), ([], PAYLOAD_TYPE.format("list")),
        ((104, 105), PAYLOAD_TYPE.format("tuple")), ({"text": "hi"}, PAYLOAD_TYPE.format("dict")),
        (iter(b"hi"), PAYLOAD_TYPE.format("bytes_iterator")),
        # Other buffers are no payload unless wrapped in a memoryview (below).
        (array.array("B", b"hi"), PAYLOAD_TYPE.format("array")), (io.BytesIO(b"hi"), PAYLOAD_TYPE.format("BytesIO")),
        (memoryview(array.array("I", [1, 2])), MEMORYVIEW.format("format 'I'")),
        (memoryview(array.array("H", [1])), MEMORYVIEW.format("format 'H'")),
        (memoryview(b"abcdef")[::2], MEMORYVIEW.format("a non-contiguous view")),
        (memoryview(bytes(12)).cast("B", (3, 4))[::2], MEMORYVIEW.format("a non-contiguous view")),
    ]
    for value, message in wrong:
        for name, render in every_input_output(gen).items():
            with pytest.raises(TypeError) as info:
                render(value)
            assert not isinstance(info.value, QrError), (name, value)
            assert str(info.value) == message, (name, value)
        # Wrong options do not hide a wrong input: the type comes first.
        with pytest.raises(TypeError, match="^" + re.escape(message) + "$"):
            gen.png(value, min_size=0, dark="red")
    # A memoryview of another buffer's bytes is one.
    assert gen.png(memoryview(array.array("B", b"hi"))) == gen.png("hi")
    # The probes take texts only.
    with pytest.raises(TypeError, match=r"^text must be str, not bytes$"):
        gen.png_repeat(b"hello", 1)


def test_bytes_empty_is_empty_text_over_7089_bytes_data_too_long_never_invalid_text_in_the_contracts_order(
        gen: Any) -> None:
    empties: list[Any] = [b"", bytearray(), memoryview(b""), memoryview(b"abc")[3:], memoryview(bytearray(8))[2:2],
                          memoryview(bytes(6)).cast("B", (2, 3))[:0]]
    longs: list[Any] = [bytes(7090), bytearray(7090), memoryview(b"\xff" * 8000)[1:7091], b"\xed\xa0\x80" * 2364]
    for name, render in every_input_output(gen).items():
        for empty in empties:
            for options in ({}, {"min_size": 0}, {"mask": 8}):
                assert _outcome(render, (empty,), options) == ("error", "empty-text", "text is empty"), (name, options)
            # An option WIT cannot carry is the host's to refuse, before the guest sees the empty payload.
            assert _outcome(render, (empty,), {"dark": "red"}) == (
                "error", "invalid-options", COLOR.format("dark", "'red'")), name
        for long in longs:
            for extra in ({}, {"min_size": 0}, {"dark": "red"}):
                assert _outcome(render, (long,), extra) == ("error", "data-too-long", DATA_TOO_LONG), (name, extra)
        # Bytes a text call refuses as invalid-text (no UTF-8, a WTF-8 lone
        # surrogate, an overlong encoding) are a payload like any other.
        for data in (b"\xff\xfe", b"\xed\xa0\x80", b"\x80", b"\xc0\xaf"):
            assert _outcome(render, (data,), {})[0] == "ok", (name, data)
        # 2954 bytes of byte mode do not fit at level low: found by encoding, after every option.
        over = b"\xff" * 2954
        assert _outcome(render, (over,), {}) == ("error", "data-too-long", AT_40_LOW_2954_BYTES), name
        assert _outcome(render, (over,), {"min_size": 0}) == (
            "error", "invalid-options", "min-size must be within 1..=4096, got 0"), name


# Every error a text gives, its UTF-8 as bytes gives too, kind and message:
# the contract's order is the same for both, host-checked and guest-checked.
UTF8_ERRORS: list[tuple[str, dict[str, Any]]] = [
    ("", {}), ("", {"min_size": 0}), ("x" * 7090, {"dark": "red"}), ("\u20ac" * 2364, {}), ("a" * 3000, {}),
    ("a" * 3000, {"dark": "red"}), ("ok", {"min_size": 4097}), ("ok", {"min_size": 1.5}), ("ok", {"quiet_zone": "4"}),
    ("ok", {"ec_level": "LOW"}), ("ok", {"scale": 0, "dark": "red"}), ("ok", {"dark": "red", "light": "blue"}),
    ("ok", {"dark": "#fff", "light": "#fff"}), ("ok", {"micro": 1}), ("ok", {"version": 2, "min_version": 3}),
    ("ok", {"micro": True, "ec_level": "high"}), ("ok", {"mask": 8, "dark": "red"}),
    ("ok", {"dark": "#fff", "light": "#fff", "mask": 8}), ("hello world", {"micro": True, "version": 1}),
]
UTF8_STYLE_ERRORS: list[tuple[str, dict[str, Any]]] = [
    ("", {"style": "x"}), ("ok", {"min_size": 0, "style": "x"}), ("ok", {"style": "x"}), ("ok", {"style": None}),
    ("a" * 3000, {"style": "x"}), ("a" * 3000, {"style": "ascii"}), ("ok", {"dark": "#fff", "light": "#fff",
                                                                          "style": "x"}),
]


def test_bytes_the_errors_of_a_texts_utf8_are_the_texts(gen: Any) -> None:
    for text, options in UTF8_ERRORS:
        for render in (gen.png, gen.svg, gen.matrix):
            expected = _outcome(render, (text,), options)
            assert expected[0] == "error"
            for form in (bytes, bytearray, memoryview):
                assert _outcome(render, (form(text.encode()),), options) == expected, (text[:20], options, form)
    for text, options in UTF8_STYLE_ERRORS:
        expected = _outcome(gen.text, (text,), options)
        assert expected[0] == "error"
        assert _outcome(gen.text, (text.encode(),), options) == expected, (text[:20], options)


def test_a_payloads_bytearray_can_resize_after_any_call_and_a_callers_view_stays_usable(gen: Any) -> None:
    # A call reads a bytearray through a view of its own, released when the
    # call is over (a live view keeps a bytearray from resizing), whatever
    # the call gave, even while the error and its traceback are kept.
    data = bytearray(b"hello")
    png = gen.png(data)
    data.extend(b"!")
    kept = []
    failing: list[tuple[Callable[..., Any], dict[str, Any]]] = [
        (gen.png, {"min_size": 0}), (gen.text, {"style": "x"}), (gen.png, {"mask": 8}),
        (gen.svg, {"dark": "#fff", "light": "#fff"}), (gen.matrix, {"version": 1, "ec_level": "high", "micro": True})]
    for render, options in failing:
        with pytest.raises(QrError) as info:
            render(data, **options)
        kept.append(info)
        data.extend(b"!")
    assert _outcome(gen.png, (bytearray(b"x" * 8000),), {})[1] == "data-too-long"
    # A caller's memoryview is not released by a call.
    del data[5:]
    view = memoryview(data)
    assert gen.png(view) == png == gen.png(view.toreadonly())
    assert bytes(view) == b"hello" and not view.readonly
    view.release()
    data.extend(b"!")


def test_options_are_keyword_only() -> None:
    with pytest.raises(TypeError):
        qrglue.png("x", "low")  # type: ignore[arg-type, call-arg, unused-ignore]  # deliberately positional: must be refused
    with pytest.raises(TypeError):
        qrglue.text("x", "ascii")  # type: ignore[arg-type, call-arg, unused-ignore]  # the style too
    with pytest.raises(TypeError):
        qrglue.matrix("x", "low")  # type: ignore[arg-type, call-arg, unused-ignore]
    with pytest.raises(TypeError):
        qrglue.png_data_uri("x", "low")  # type: ignore[arg-type, call-arg, unused-ignore]


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


# --- misuse of the library: lying subclasses, two threads in one Generator,
# failures that are not the contract's ---------------------------------------


class LyingStr(str):
    """A str whose every overridable method lies about its contents."""

    def encode(self, *args: Any, **kwargs: Any) -> bytes:
        return b"x" * 10_000_000

    def __len__(self) -> int:
        return 1

    def __str__(self) -> str:
        return "something else"

    def __repr__(self) -> str:
        return "'low'"

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return hash("low")

    def __iter__(self) -> Any:
        return iter("lies")

    def __getitem__(self, index: Any) -> str:
        return "x"


class LyingInt(int):
    """An int whose comparisons, conversions and repr lie."""

    def __index__(self) -> int:
        return 2**40

    def __int__(self) -> int:
        return 5

    def __le__(self, other: object) -> bool:
        return True

    def __ge__(self, other: object) -> bool:
        return True

    def __lt__(self, other: object) -> bool:
        return True

    def __repr__(self) -> str:
        return "5"


class LyingBytes(bytes):
    def __len__(self) -> int:
        return 1 << 30

    def __bytes__(self) -> bytes:
        return b""


class LyingBytearray(bytearray):
    """A bytearray whose length, items and bytes lie."""

    def __len__(self) -> int:
        return 3

    def __bytes__(self) -> bytes:
        return b"lie"

    def __getitem__(self, index: Any) -> Any:
        return b"lie"

    def __iter__(self) -> Any:
        return iter(b"lie")


def _outcome(render: Callable[..., Any], args: tuple[Any, ...], options: dict[str, Any]) -> Any:
    try:
        return ("ok", render(*args, **options))
    except QrError as e:
        return ("error", e.kind, str(e))


def test_lying_subclasses_get_the_plain_result(gen: Any) -> None:
    # Each call with lying values must give exactly what the plain values give.
    long_text = "é" * 4000  # 8,000 UTF-8 bytes: data-too-long whatever __len__ says
    cases: list[tuple[tuple[Any, ...], dict[str, Any], tuple[Any, ...], dict[str, Any]]] = [
        ((LyingStr("hello"),), {}, ("hello",), {}),
        ((LyingStr("こんにちは 世界"),), {"ec_level": LyingStr("high")}, ("こんにちは 世界",), {"ec_level": "high"}),
        ((LyingStr(long_text),), {}, (long_text,), {}),
        ((LyingStr(""),), {}, ("",), {}),
        ((LyingStr("\ud800"),), {}, ("\ud800",), {}),
        (("hi",), {"ec_level": LyingStr("bogus")}, ("hi",), {"ec_level": "bogus"}),
        (("hi",), {"min_size": LyingInt(300), "quiet_zone": LyingInt(2)}, ("hi",), {"min_size": 300, "quiet_zone": 2}),
        (("hi",), {"min_size": LyingInt(5000)}, ("hi",), {"min_size": 5000}),
        (("hi",), {"quiet_zone": LyingInt(-1)}, ("hi",), {"quiet_zone": -1}),
        (("hi",), {"scale": LyingInt(3), "dark": LyingStr("#336699"), "light": LyingStr("#eee")},
         ("hi",), {"scale": 3, "dark": "#336699", "light": "#eee"}),
        (("hi",), {"scale": LyingInt(21)}, ("hi",), {"scale": 21}),
        (("hi",), {"dark": LyingStr("red")}, ("hi",), {"dark": "red"}),
        (("hi",), {"light": LyingStr("#000")}, ("hi",), {"light": "#000"}),
        (("hi",), {"version": LyingInt(7), "mask": LyingInt(2)}, ("hi",), {"version": 7, "mask": 2}),
        (("hi",), {"min_version": LyingInt(3)}, ("hi",), {"min_version": 3}),
        (("hi",), {"version": LyingInt(41)}, ("hi",), {"version": 41}),
        (("12",), {"micro": True, "mask": LyingInt(4)}, ("12",), {"micro": True, "mask": 4}),
        (("12",), {"micro": True, "version": LyingInt(-1)}, ("12",), {"micro": True, "version": -1}),
        # Payloads: read through bytes' and bytearray's own methods, whatever
        # the subclass says its length, items or bytes are.
        ((LyingBytes(b"hello"),), {}, (b"hello",), {}),
        ((LyingBytes(b"\xff\xfe"),), {"ec_level": LyingStr("high")}, (b"\xff\xfe",), {"ec_level": "high"}),
        ((LyingBytes(b"x" * 8000),), {}, (b"x" * 8000,), {}),
        ((LyingBytes(b""),), {}, (b"",), {}),
        ((LyingBytearray(b"hello"),), {}, (b"hello",), {}),
        ((LyingBytearray(b"x" * 8000),), {}, (b"x" * 8000,), {}),
        ((LyingBytearray(b""),), {"min_size": LyingInt(0)}, (b"",), {}),
    ]
    for lying_args, lying_options, plain_args, plain_options in cases:
        for render in every_output(gen):
            expected = _outcome(render, plain_args, plain_options)
            assert _outcome(render, lying_args, lying_options) == expected, (plain_args, plain_options)
    # A lying style is read as the plain one, and shown as the plain one when refused.
    for style in ("ascii", "half-blocks-inverted", "bogus"):
        assert _outcome(gen.text, ("hi",), {"style": LyingStr(style)}) == _outcome(gen.text, ("hi",), {"style": style})
    # The probes that take a count or bytes.
    assert gen.png_repeat(LyingStr("hi"), LyingInt(2)) == gen.png_repeat("hi", 2)
    assert gen.consume(LyingBytes(b"abc")) == 3
    assert gen.produce(LyingInt(7)) == bytes(range(7))


SCALE_RANGE = "scale must be within 1..=20, got {}"
COLOR = "{} must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got {}"
SAME_COLORS = "dark and light must be different colours, both are {}"

# Strings the core's Rgba::from_hex refuses, and values that are not strings.
BAD_COLORS: list[Any] = [
    "", "#", "000", "#00", "#00000", "#0000000", "#000000000", "#ggg", "# 000", "#+12", "red", "#ff00ff\n",
    "\uff03fff", "#\u0663\u0663\u0663", " #000", "#000 ", "#0x00", "#-12", "#\u00e9\u00e9\u00e9",
    "#\ud800\ud800\ud800", 0, 0x000000FF, None, 1.5, ("#000",), ["#000"], {"r": 0}, b"#000", True,
]


@pytest.mark.parametrize("scale, shown", [
    (0, "0"), (21, "21"), (2**32 - 1, "4294967295"), (2**32, "4294967296"), (-1, "-1"),
])
def test_scale_out_of_range_is_invalid_options(gen: Any, scale: Any, shown: str) -> None:
    assert {_outcome(render, ("hello",), {"scale": scale}) for render in every_output(gen)} == {
        ("error", "invalid-options", SCALE_RANGE.format(shown))}


@pytest.mark.parametrize("option, value, shown", [
    ("scale", 2.5, "2.5"), ("scale", 2.0, "2.0"), ("scale", "3", "'3'"), ("scale", True, "True"),
    ("scale", [3], "[3]"), ("min_size", 200.0, "200.0"), ("quiet_zone", None, "None"), ("version", 1.5, "1.5"),
    ("mask", "1", "'1'"), ("min_version", False, "False"),
])
def test_a_number_that_is_not_an_integer_says_so(gen: Any, option: str, value: Any, shown: str) -> None:
    # Not "must be within 1..=20, got 2.5": 2.5 is within the range, it is not an integer.
    wit = option.replace("_", "-")
    assert {_outcome(render, ("hello",), {option: value}) for render in every_output(gen)} == {
        ("error", "invalid-options", f"{wit} must be an integer, got {shown}")}


@pytest.mark.parametrize("function", ["png", "svg", "png_data_uri", "svg_data_uri", "matrix", "text"])
def test_an_unknown_keyword_is_invalid_options_naming_the_function(gen: Any, function: str) -> None:
    render = getattr(gen, function)
    with pytest.raises(QrError) as info:
        render("hi", error="m")
    known = qrglue.SVG_KEYWORDS if function.startswith("svg") else (
        qrglue.TEXT_KEYWORDS if function == "text" else qrglue.KEYWORDS)
    name = function.removesuffix("_data_uri")
    assert info.value.kind == "invalid-options"
    assert str(info.value) == f'unknown option "error" for {name}() (known: {", ".join(known)})'
    # The text's host errors come first; an unknown option (the host's) comes before empty-text (the guest's).
    with pytest.raises(QrError) as empty:
        render("", error="m")
    assert empty.value.kind == "invalid-options"
    with pytest.raises(QrError) as surrogate:
        render("\ud800", error="m")
    assert surrogate.value.kind == "invalid-text"
    with pytest.raises(TypeError):
        render(5, error="m")


def test_the_module_functions_name_themselves_for_an_unknown_keyword() -> None:
    # The public functions, not an internal class (PerThread), on every path.
    for module in (qrglue, qrglue.raw, qrglue.native):
        with pytest.raises(QrError, match=r'^unknown option "error" for png\(\) \(known: ec_level, '):
            module.png("hi", error="m")


@pytest.mark.parametrize("value", BAD_COLORS, ids=repr)
def test_bad_colour_is_invalid_options_for_dark_and_light(gen: Any, value: Any) -> None:
    for option in ("dark", "light"):
        assert {_outcome(render, ("hello",), {option: value}) for render in every_output(gen)} == {
            ("error", "invalid-options", COLOR.format(option, repr(value)))}


@pytest.mark.parametrize("value", ["#000", "#FFF", "#0000", "#000000", "#AbCdEf", "#00000000", "#12345678",
                                   "#fffe", "#FFFFFFFE"])
def test_every_hex_form_is_a_colour(gen: Any, value: str) -> None:
    # Every form, either case; equal colours are refused (and named) by the
    # guest in #rrggbbaa, which shows how the host read the string.
    other = "#123" if value.lower() not in ("#123", "#112233", "#112233ff") else "#456"
    assert gen.png("hello", dark=value, light=other)[:8] == b"\x89PNG\r\n\x1a\n"
    digits = value[1:].lower()
    rrggbbaa = "".join(d + d for d in digits) if len(digits) <= 4 else digits
    rrggbbaa += "ff" if len(rrggbbaa) == 6 else ""
    assert _outcome(gen.png, ("hello",), {"dark": value, "light": "#" + rrggbbaa}) == (
        "error", "invalid-options", SAME_COLORS.format("#" + rrggbbaa))


@pytest.mark.parametrize("dark, light, shown", [
    ("#000", "#000000ff", "#000000ff"), ("#fff", "#FFFFFF", "#ffffffff"), ("#0000", "#00000000", "#00000000"),
    ("#123456", "#123456ff", "#123456ff"), ("#abcd", "#AABBCCDD", "#aabbccdd"),
])
def test_same_colours_are_refused_by_the_guest(gen: Any, dark: str, light: str, shown: str) -> None:
    assert {_outcome(render, ("hello",), {"dark": dark, "light": light}) for render in every_output(gen)} == {
        ("error", "invalid-options", SAME_COLORS.format(shown))}
    # Only the default colours differ; so the defaults alone never collide.
    assert _outcome(gen.png, ("hello",), {"light": "#000"}) == (
        "error", "invalid-options", SAME_COLORS.format("#000000ff"))
    assert _outcome(gen.png, ("hello",), {"dark": "#ffffffff"}) == (
        "error", "invalid-options", SAME_COLORS.format("#ffffffff"))


@pytest.mark.parametrize("text, options, expected", [
    # The host's checks come first (the text's, then each option WIT cannot carry), then the guest's.
    ("", {"dark": "red"}, ("invalid-options", COLOR.format("dark", "'red'"))),
    ("", {"dark": "#000", "light": "#000"}, ("empty-text", "text is empty")),
    ("", {"scale": 0, "light": None}, ("invalid-options", COLOR.format("light", "None"))),
    ("", {"scale": 0}, ("empty-text", "text is empty")),
    ("\ud800", {"dark": "red"}, ("invalid-text", "text contains a lone surrogate (not encodable as UTF-8)")),
    ("x" * 7090, {"light": "red"}, ("data-too-long", "text does not fit in any QR code: "
            "it is over 7089 bytes, the most one holds")),
    # Then the options in WIT order: ec-level, min-size, quiet-zone, scale, dark, light, equal colours.
    ("x", {"ec_level": "ultra", "dark": "red"},
     ("invalid-options", "ec-level must be one of low, medium, quartile, high, got 'ultra'")),
    ("x", {"min_size": 0, "dark": "red"}, ("invalid-options", COLOR.format("dark", "'red'"))),
    ("x", {"min_size": 0, "dark": "#000"}, ("invalid-options", "min-size must be within 1..=4096, got 0")),
    ("x", {"quiet_zone": 17, "light": "red"}, ("invalid-options", COLOR.format("light", "'red'"))),
    ("x", {"quiet_zone": 17, "light": "#fff"}, ("invalid-options", "quiet-zone must be within 0..=16, got 17")),
    ("x", {"scale": 0, "dark": "red", "light": "red"}, ("invalid-options", COLOR.format("dark", "'red'"))),
    ("x", {"scale": 0, "dark": "#000", "light": "#000"}, ("invalid-options", SCALE_RANGE.format("0"))),
    ("x", {"scale": 21, "dark": "#000", "light": "#000"}, ("invalid-options", SCALE_RANGE.format("21"))),
    ("x", {"dark": "red", "light": "blue"}, ("invalid-options", COLOR.format("dark", "'red'"))),
    ("x", {"dark": "#000", "light": "blue"}, ("invalid-options", COLOR.format("light", "'blue'"))),
    ("x", {"dark": "#0000", "light": "#fff"}, None),  # differ in alpha alone: fine
    # A bad colour is an option like the others: before the capacity check.
    ("a" * 3000, {"ec_level": "high", "dark": "red"}, ("invalid-options", COLOR.format("dark", "'red'"))),
    ("a" * 3000, {"ec_level": "high", "dark": "#000", "light": "#000"},
     ("invalid-options", SAME_COLORS.format("#000000ff"))),
])
def test_option_errors_in_the_contracts_order(gen: Any, text: str, options: dict[str, Any],
                                              expected: tuple[str, str] | None) -> None:
    outcomes = {_outcome(render, (text,), options)[:3] for render in every_output(gen)}
    if expected is None:
        assert {found[0] for found in outcomes} == {"ok"}
    else:
        assert outcomes == {("error", *expected)}
    # A bad style (the host's) comes after the options' host checks, before any of the guest's.
    if expected is not None:
        host = expected[0] == "invalid-options" and ("must be a colour" in expected[1] or "one of" in expected[1])
        want = expected if host or expected[0] not in ("invalid-options", "empty-text") else (
            "invalid-options", "text-style must be one of half-blocks, half-blocks-inverted, ascii, got 'sepia'")
        assert _outcome(gen.text, (text,), {**options, "style": "sepia"}) == ("error", *want)
