"""The package's copies of the contract equal target/contract.json (generated
by the build from guest/core/src/contract.rs), and every path raises the
contract's kind and message for the same input, in the contract's order."""

from __future__ import annotations

import functools
import json
import pickle
from pathlib import Path
from typing import Any

import pytest

import qrglue
import qrglue.raw
from conftest import checked
from qrglue import QrError, _common

CONTRACT_FILE = Path(__file__).resolve().parents[3] / "target" / "contract.json"


@pytest.fixture(scope="module")
def contract() -> dict[str, Any]:
    if not CONTRACT_FILE.is_file():
        pytest.fail(f"{CONTRACT_FILE} is missing: run `just contract` (or `just build`)")
    loaded: dict[str, Any] = json.loads(CONTRACT_FILE.read_text(encoding="utf-8"))
    return loaded


def test_constants_equal_the_contract(contract: dict[str, Any]) -> None:
    assert list(_common.EC_LEVELS) == contract["ec_levels"]
    assert {"ec-level": _common.DEFAULT_EC_LEVEL, "min-size": _common.DEFAULT_MIN_SIZE,
            "quiet-zone": _common.DEFAULT_QUIET_ZONE, "scale": _common.DEFAULT_SCALE, "dark": _common.DEFAULT_DARK,
            "light": _common.DEFAULT_LIGHT, "text-style": _common.DEFAULT_TEXT_STYLE,
            "micro": _common.DEFAULT_MICRO, "version": _common.DEFAULT_VERSION,
            "min-version": _common.DEFAULT_MIN_VERSION, "mask": _common.DEFAULT_MASK,
            "boost-ec": _common.DEFAULT_BOOST_EC, "eci": _common.DEFAULT_ECI,
            "view-box-only": _common.DEFAULT_VIEW_BOX_ONLY,
            "title": _common.DEFAULT_TITLE, "class": _common.DEFAULT_CLASS} == contract["defaults"]
    assert {"svg-title-bytes": list(_common.SVG_TITLE_BYTES_BOUNDS),
            "svg-class-bytes": list(_common.SVG_CLASS_BYTES_BOUNDS),
            "min-size": list(_common.MIN_SIZE_BOUNDS), "quiet-zone": list(_common.QUIET_ZONE_BOUNDS),
            "scale": list(_common.SCALE_BOUNDS), "version": list(_common.VERSION_BOUNDS),
            "micro-version": list(_common.MICRO_VERSION_BOUNDS), "mask": list(_common.MASK_BOUNDS),
            "micro-mask": list(_common.MICRO_MASK_BOUNDS)} == contract["bounds"]
    assert (qrglue.DEFAULT_SCALE, qrglue.DEFAULT_DARK, qrglue.DEFAULT_LIGHT) == (
        _common.DEFAULT_SCALE, _common.DEFAULT_DARK, _common.DEFAULT_LIGHT)
    assert (qrglue.DEFAULT_MICRO, qrglue.DEFAULT_VERSION, qrglue.DEFAULT_MIN_VERSION, qrglue.DEFAULT_MASK,
            qrglue.DEFAULT_BOOST_EC, qrglue.DEFAULT_ECI) == (False, None, None, None, False, False)
    assert _common.MAX_TEXT_BYTES == contract["max_text_bytes"]
    assert _common.MAX_PNG_REPEAT_TIMES == contract["max_png_repeat_times"]
    assert list(_common.ERROR_KINDS) == contract["error_kinds"]
    assert list(_common.ERROR_CHECK_ORDER) == contract["error_check_order"]
    assert qrglue.ERROR_KINDS == _common.ERROR_KINDS and qrglue.EC_LEVELS == _common.EC_LEVELS


def test_messages_equal_the_contract(contract: dict[str, Any]) -> None:
    assert {
        "empty-text": _common.EMPTY_TEXT_MESSAGE,
        "data-too-long": _common.DATA_TOO_LONG_MESSAGE,
        "lone-surrogate": _common.LONE_SURROGATE_MESSAGE,
        "out-of-range": _common.OUT_OF_RANGE_TEMPLATE,
        "not-integer": _common.NOT_INTEGER_TEMPLATE,
        "ec-level-name": _common.EC_LEVEL_NAME_TEMPLATE,
        "ec-level-index": _common.EC_LEVEL_INDEX_TEMPLATE,
        "text-style-name": _common.TEXT_STYLE_NAME_TEMPLATE,
        "text-style-index": _common.TEXT_STYLE_INDEX_TEMPLATE,
        "color": _common.COLOR_TEMPLATE,
        "same-colors": _common.SAME_COLORS_TEMPLATE,
        "version-conflict": _common.VERSION_CONFLICT_MESSAGE,
        "micro-ec-level": _common.MICRO_EC_LEVEL_MESSAGE,
        "micro-eci": _common.MICRO_ECI_MESSAGE,
        "too-long": _common.TOO_LONG_TEMPLATE,
        "not-xml-char": _common.NOT_XML_CHAR_TEMPLATE,
        "class": _common.CLASS_TEMPLATE,
        "option-not-text": _common.OPTION_NOT_TEXT_TEMPLATE,
        "option-lone-surrogate": _common.OPTION_LONE_SURROGATE_TEMPLATE,
        # Not a copy: "not-utf8" is for a text's bytes that are not UTF-8, and the
        # package takes a text only as a str (its lone surrogates have their own
        # message above; bytes are a binary payload, never decoded); the raw
        # guest's own check words it when a text's bytes reach it.
        "not-utf8": contract["messages"]["not-utf8"],
    } == contract["messages"]


def test_raw_abi_equals_the_contract(contract: dict[str, Any]) -> None:
    codes = {kind: code for code, kind in _common.RAW_STATUS_KINDS.items()}
    assert {"version": _common.RAW_ABI_VERSION, "record_bytes": _common.RAW_RECORD_BYTES,
            "status_ok": _common.RAW_STATUS_OK, "status_codes": codes,
            "symbol_flags": _common.RAW_SYMBOL_FLAGS, "svg_flags": _common.RAW_SVG_FLAGS} == contract["raw_abi"]


def raised(gen: Any, text: Any, **options: Any) -> list[tuple[str, str, str]]:
    """(kind, str(error), .message) from png, svg, matrix and text."""
    found: list[tuple[str, str, str]] = []
    for render in (gen.png, gen.svg, gen.matrix, gen.text):
        with pytest.raises(QrError) as info:
            render(text, **options)
        found.append((info.value.kind, str(info.value), info.value.message))
    return found


def expect(kind: str, message: str) -> list[tuple[str, str, str]]:
    return [(kind, message, message)] * 4


def out_of_range(option: str, value: str) -> str:
    low, high = _common.MIN_SIZE_BOUNDS if option == "min-size" else _common.QUIET_ZONE_BOUNDS
    return f"{option} must be within {low}..={high}, got {value}"


def not_integer(option: str, value: str) -> str:
    return f"{option} must be an integer, got {value}"


EC_LEVEL_NAME = "ec-level must be one of low, medium, quartile, high, got {}"


@pytest.mark.parametrize("text, options, kind, message", [
    ("", {}, "empty-text", "text is empty"),
    ("x" * 8000, {}, "data-too-long", _common.DATA_TOO_LONG_MESSAGE),
    ("é" * 3545, {}, "data-too-long", _common.DATA_TOO_LONG_MESSAGE),       # 7090 bytes
    ("a" * 3000, {"ec_level": "high"}, "data-too-long",  # the guest's check: it names the limit hit
     "text does not fit in a QR code at level high: it needs 24020 data bits, version 40 holds 10208"),
    ("ab\ud800cd", {}, "invalid-text", _common.LONE_SURROGATE_MESSAGE),
    ("\udc00", {}, "invalid-text", _common.LONE_SURROGATE_MESSAGE),
    ("x", {"quiet_zone": -1}, "invalid-options", "quiet-zone must be within 0..=16, got -1"),
    ("x", {"quiet_zone": 17}, "invalid-options", out_of_range("quiet-zone", "17")),
    ("x", {"quiet_zone": 2**32}, "invalid-options", out_of_range("quiet-zone", "4294967296")),
    ("x", {"quiet_zone": 2**64}, "invalid-options", out_of_range("quiet-zone", str(2**64))),
    ("x", {"min_size": 0}, "invalid-options", out_of_range("min-size", "0")),
    ("x", {"min_size": 4097}, "invalid-options", out_of_range("min-size", "4097")),
    ("x", {"min_size": -5}, "invalid-options", out_of_range("min-size", "-5")),
    ("x", {"min_size": True}, "invalid-options", not_integer("min-size", "True")),
    ("x", {"min_size": 2.0}, "invalid-options", not_integer("min-size", "2.0")),
    ("x", {"min_size": "big"}, "invalid-options", not_integer("min-size", "'big'")),
    ("x", {"min_size": None}, "invalid-options", not_integer("min-size", "None")),
    ("x", {"ec_level": "ultra"}, "invalid-options", EC_LEVEL_NAME.format("'ultra'")),
    ("x", {"ec_level": "LOW"}, "invalid-options", EC_LEVEL_NAME.format("'LOW'")),
    ("x", {"ec_level": 0}, "invalid-options", EC_LEVEL_NAME.format("0")),
    # Binary payloads: the same kinds and messages, never invalid-text.
    (b"", {}, "empty-text", "text is empty"),
    (bytearray(), {"quiet_zone": -1}, "invalid-options", "quiet-zone must be within 0..=16, got -1"),  # the host's
    (bytearray(), {"quiet_zone": 17}, "empty-text", "text is empty"),  # the guest's, after empty-text
    (b"\xff" * 7090, {}, "data-too-long", _common.DATA_TOO_LONG_MESSAGE),
    (memoryview(b"\xff" * 2954), {}, "data-too-long",  # the guest's check: it names the limit hit
     "text does not fit in a QR code at level low: it needs 23652 data bits, version 40 holds 23648"),
    (b"\xed\xa0\x80" * 2364, {"quiet_zone": -1}, "data-too-long", _common.DATA_TOO_LONG_MESSAGE),
    (b"\xff", {"quiet_zone": -1}, "invalid-options", "quiet-zone must be within 0..=16, got -1"),
    (bytearray(b"\xed\xa0\x80"), {"ec_level": "LOW"}, "invalid-options", EC_LEVEL_NAME.format("'LOW'")),
])
def test_every_path_raises_the_contract_message(gen: Any, text: str, options: dict[str, Any],
                                                kind: str, message: str) -> None:
    assert raised(gen, text, **options) == expect(kind, message)


@pytest.mark.parametrize("text, options, kind", [
    # invalid-text before everything else
    ("\ud800" * 8000, {"min_size": 0}, "invalid-text"),
    # the host's invalid-options (what WIT cannot carry) before empty-text, the guest's after it
    ("", {"min_size": 0}, "empty-text"),
    ("", {"quiet_zone": -1, "ec_level": "ultra"}, "invalid-options"),
    # data-too-long (over MAX_TEXT_BYTES) before invalid-options
    ("x" * 7090, {"min_size": 0, "ec_level": "ultra"}, "data-too-long"),
    # invalid-options before the guest's own capacity check
    ("a" * 3000, {"ec_level": "high", "min_size": 0}, "invalid-options"),
    # the options in WIT field order: ec-level, min-size, quiet-zone
    ("x", {"ec_level": "ultra", "min_size": 0, "quiet_zone": -1}, "invalid-options"),
])
def test_check_order(gen: Any, text: str, options: dict[str, Any], kind: str) -> None:
    assert {found[0] for found in raised(gen, text, **options)} == {kind}


def test_first_bad_option_is_reported_in_wit_order(gen: Any) -> None:
    # The host's (an int outside u32) before the guest's (a bound), each in WIT order.
    assert raised(gen, "x", min_size=0, quiet_zone=-1) == expect("invalid-options", out_of_range("quiet-zone", "-1"))
    assert raised(gen, "x", min_size=0, quiet_zone=17) == expect("invalid-options", out_of_range("min-size", "0"))
    assert raised(gen, "x", min_size=1, quiet_zone=-1) == expect("invalid-options", out_of_range("quiet-zone", "-1"))


@pytest.mark.parametrize("min_size, quiet_zone", [(0, 4), (4097, 4), (2**32 - 1, 4), (200, 17), (200, 2**32 - 1)])
def test_guest_says_what_the_host_says(wasm_gen: Any, min_size: int, quiet_zone: int) -> None:
    # The host refuses these before the call; past that check, the guest's
    # own answer (through this path's glue) must be the same error. (The
    # native path has one check, in Rust: test_every_path_raises_... covers it.)
    gen = wasm_gen
    with pytest.raises(QrError) as host:
        gen.png("x", min_size=min_size, quiet_zone=quiet_zone)
    calls = gen._calls
    for call in (calls.png, calls.svg, calls.matrix, functools.partial(calls.text, style=2)):
        with pytest.raises(QrError) as guest:
            call("x", b"x", checked(0, min_size, quiet_zone))
        assert (guest.value.kind, str(guest.value)) == (host.value.kind, str(host.value))
    # The *-bytes generators, on a payload that is no UTF-8, say the same.
    for payload_call in (calls.png_bytes, calls.svg_bytes, calls.matrix_bytes,
                         functools.partial(calls.text_bytes, style=2)):
        with pytest.raises(QrError) as guest:
            payload_call(b"\xff", checked(0, min_size, quiet_zone))
        assert (guest.value.kind, str(guest.value)) == (host.value.kind, str(host.value))


def test_raw_guest_refuses_an_ec_level_index_with_the_contract_message() -> None:
    calls = qrglue.raw.Generator()._calls
    for call in (calls.png, calls.svg, calls.matrix, functools.partial(calls.text, style=0)):
        with pytest.raises(QrError) as info:
            call("x", b"x", checked(4))
        assert info.value.kind == "invalid-options"
        assert str(info.value) == _common.EC_LEVEL_INDEX_TEMPLATE.format(value=4)


def test_text_styles_are_the_contracts_and_checked_last(contract: dict[str, Any], gen: Any) -> None:
    # The names, their order (the raw ABI's index) and the default are the contract's.
    assert list(_common.TEXT_STYLES) == contract["text_styles"] and qrglue.TEXT_STYLES == _common.TEXT_STYLES
    assert _common.DEFAULT_TEXT_STYLE == contract["defaults"]["text-style"] == qrglue.DEFAULT_TEXT_STYLE
    drawn = {style: gen.text("hello", style=style) for style in contract["text_styles"]}
    assert len(set(drawn.values())) == 3 and gen.text("hello") == drawn[contract["defaults"]["text-style"]]
    # A bad name: the contract's message, the host's error, before any of the guest's (docs/contract.md).
    name_message = contract["messages"]["text-style-name"]
    assert raised_by_text(gen, "hello", style="sepia") == ("invalid-options", name_message.format(value="'sepia'"))
    assert raised_by_text(gen, "hello", style="sepia", min_size=0) == (
        "invalid-options", name_message.format(value="'sepia'"))
    assert raised_by_text(gen, "hello", style="ascii", min_size=0) == (
        "invalid-options", contract["messages"]["out-of-range"].format(option="min-size", min=1, max=4096, value=0))


def raised_by_text(gen: Any, text: str, **options: Any) -> tuple[str, str]:
    with pytest.raises(QrError) as info:
        gen.text(text, **options)
    return info.value.kind, str(info.value)


@pytest.mark.parametrize("glue", ["fast", "stock"])
def test_raw_guest_refuses_a_text_style_index_with_the_contract_message(contract: dict[str, Any], glue: str) -> None:
    # The package only sends indices of TEXT_STYLES; the guest's own check,
    # past the host's, words the raw ABI's template, after every option.
    calls = qrglue.raw.Generator(glue=glue)._calls
    last = len(contract["text_styles"]) - 1
    last_style = contract["text_styles"][last]
    assert calls.text("hello", b"hello", checked(), last) == qrglue.raw.text("hello", style=last_style)
    for style in (last + 1, 2**32 - 1):
        with pytest.raises(QrError) as info:
            calls.text("hello", b"hello", checked(), style)
        assert (info.value.kind, str(info.value)) == (
            "invalid-options", contract["messages"]["text-style-index"].format(value=style))
    with pytest.raises(QrError) as info:
        calls.text("hello", b"hello", checked(min_size=0), last + 1)
    assert str(info.value) == contract["messages"]["out-of-range"].format(option="min-size", min=1, max=4096, value=0)


def test_qr_error_shape() -> None:
    error = QrError("empty-text")
    assert (error.kind, error.message, str(error)) == ("empty-text", "text is empty", "text is empty")
    assert isinstance(error, ValueError)
    copy = pickle.loads(pickle.dumps(QrError("invalid-options", "min-size must be within 1..=4096, got 0")))
    assert (copy.kind, copy.message) == ("invalid-options", "min-size must be within 1..=4096, got 0")
    with pytest.raises(ValueError, match="unknown qr error kind"):
        QrError("no-such-kind")
    with pytest.raises(ValueError, match="needs a message"):
        QrError("invalid-options")


def test_png_repeat_times_is_bounded(gen: Any, contract: dict[str, Any]) -> None:
    # No public call may run for more than a second (a wasm call cannot be
    # interrupted): png_repeat's `times` is bounded on every path, after the
    # text's own checks; a count outside u32 is refused, never wrapped.
    bound = contract["max_png_repeat_times"]
    text = "https://www.reddit.com/r/rustjerk/top/?t=all"
    length = gen.png_repeat(text, 1)
    assert gen.png_repeat(text, bound) == length
    for times in (bound + 1, 2**32 - 1):
        with pytest.raises(QrError) as info:
            gen.png_repeat(text, times)
        assert info.value.kind == "invalid-options"
        assert str(info.value) == contract["messages"]["out-of-range"].format(
            option="times", min=0, max=bound, value=times)
    with pytest.raises(QrError) as info:
        gen.png_repeat("", bound + 1)
    assert info.value.kind == "empty-text"
    for bad in (2**32, -1, 1.5, "3", None, True):
        with pytest.raises(ValueError, match=r"expected an int in 0\.\.2\*\*32"):
            gen.png_repeat(text, bad)
