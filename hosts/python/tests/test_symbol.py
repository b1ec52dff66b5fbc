"""The symbol options (micro, version, min_version, mask, boost_ec) on every
path: bad values get the contract's kind and message everywhere, in the
contract's order against the other options; good values give the same code
on every path (and the code they ask for); the guest, past the host's
checks, says what the host says; the glues lower them right call after call.

segno's matrices for the same options: test_segno_oracle.py; zxing-cpp
reading them back: test_readback.py; the CLI flags: test_cli.py."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pytest

import qrglue
import qrglue.raw
from conftest import PATHS, checked
from qrglue import QrError, _common
from qrglue._common import Symbol

OUT_OF_RANGE = "{} must be within {}..={}, got {}"
CONFLICT = "version and min-version exclude each other: give one"
MICRO_HIGH = "ec-level high is not available in Micro QR (M4 goes up to quartile)"
MICRO_ECI = "eci is not available in Micro QR (it has no ECI mode)"
BOOLEAN = "{} must be a boolean, got {}"
NOT_INTEGER = "{} must be an integer, got {}"
SAME_COLORS = "dark and light must be different colours, both are {}"
URL = "https://www.reddit.com/r/rustjerk/top/?t=all"


def every_output(gen: Any) -> list[Callable[..., Any]]:
    return [gen.png, gen.svg, gen.matrix, gen.text,
            *(functools.partial(gen.text, style=style) for style in qrglue.TEXT_STYLES)]


def outcome(render: Callable[..., Any], *args: Any, **options: Any) -> tuple[Any, ...]:
    try:
        return ("ok", render(*args, **options))
    except QrError as e:
        return ("error", e.kind, str(e))


BAD_VALUES: list[tuple[dict[str, Any], str]] = [
    # version / min-version: 1..=40, both ends, and what is no u32 int at all.
    *(({option.replace("-", "_"): value}, OUT_OF_RANGE.format(option, 1, 40, shown))
      for option in ("version", "min-version")
      for value, shown in ((0, "0"), (41, "41"), (-1, "-1"), (2**32 - 1, "4294967295"), (2**32, "4294967296"),
                           (2**64, str(2**64)))),
    # ... and a value that is not an integer says so (5.0 is in range).
    *(({option.replace("-", "_"): value}, NOT_INTEGER.format(option, shown))
      for option in ("version", "min-version")
      for value, shown in ((5.0, "5.0"), ("5", "'5'"), (True, "True"), ([5], "[5]"))),
    # ... 1..=4 with micro.
    ({"micro": True, "version": 5}, OUT_OF_RANGE.format("version", 1, 4, 5)),
    ({"micro": True, "version": 0}, OUT_OF_RANGE.format("version", 1, 4, 0)),
    ({"micro": True, "min_version": 5}, OUT_OF_RANGE.format("min-version", 1, 4, 5)),
    ({"micro": True, "min_version": 40}, OUT_OF_RANGE.format("min-version", 1, 4, 40)),
    # Both given, even the same number.
    ({"version": 3, "min_version": 3}, CONFLICT),
    ({"version": 40, "min_version": 1}, CONFLICT),
    ({"micro": True, "version": 2, "min_version": 1}, CONFLICT),
    # mask: 0..=7, 0..=3 with micro.
    ({"mask": 8}, OUT_OF_RANGE.format("mask", 0, 7, 8)),
    ({"mask": -1}, OUT_OF_RANGE.format("mask", 0, 7, -1)),
    ({"mask": 2**32}, OUT_OF_RANGE.format("mask", 0, 7, 2**32)),
    ({"mask": 1.0}, NOT_INTEGER.format("mask", "1.0")),
    ({"mask": False}, NOT_INTEGER.format("mask", "False")),
    ({"micro": True, "mask": 4}, OUT_OF_RANGE.format("mask", 0, 3, 4)),
    ({"micro": True, "mask": 7}, OUT_OF_RANGE.format("mask", 0, 3, 7)),
    # Micro QR has no level high.
    ({"micro": True, "ec_level": "high"}, MICRO_HIGH),
    ({"micro": True, "ec_level": "high", "version": 4, "mask": 3}, MICRO_HIGH),
    # Nor ECI: the last symbol check.
    ({"micro": True, "eci": True}, MICRO_ECI),
    ({"micro": True, "eci": True, "ec_level": "high"}, MICRO_HIGH),
    ({"micro": True, "eci": True, "mask": 4}, OUT_OF_RANGE.format("mask", 0, 3, 4)),
    ({"micro": True, "eci": 1, "ec_level": "high"}, BOOLEAN.format("eci", "1")),
    ({"eci": 1, "boost_ec": 1}, BOOLEAN.format("boost-ec", "1")),
    # The bools are exactly True or False.
    *(({option: value}, BOOLEAN.format(option.replace("_", "-"), shown))
      for option in ("micro", "boost_ec", "eci")
      for value, shown in ((1, "1"), (0, "0"), (None, "None"), ("true", "'true'"), (1.0, "1.0"), ([], "[]"))),
]


@pytest.mark.parametrize("options, message", BAD_VALUES, ids=[repr(o) for o, _ in BAD_VALUES])
def test_bad_symbol_options_are_invalid_options_on_every_path(gen: Any, options: dict[str, Any],
                                                              message: str) -> None:
    assert {outcome(render, "12345", **options) for render in every_output(gen)} == {
        ("error", "invalid-options", message)}


ORDER: list[tuple[str, dict[str, Any], tuple[str, str]]] = [
    # The host's checks come first: the text's, then each option WIT cannot carry (a type, an int outside u32).
    ("", {"mask": 99}, ("empty-text", "text is empty")),
    ("", {"micro": "yes", "version": 0}, ("invalid-options", BOOLEAN.format("micro", "'yes'"))),
    ("", {"micro": True, "version": 0}, ("empty-text", "text is empty")),
    ("\ud800", {"version": 0}, ("invalid-text", _common.LONE_SURROGATE_MESSAGE)),
    ("x" * 7090, {"micro": True, "ec_level": "high"}, ("data-too-long", _common.DATA_TOO_LONG_MESSAGE)),
    # Then the guest's: every other option, equal colours included, before any symbol option.
    ("x", {"ec_level": "ultra", "version": 0}, ("invalid-options", _common.EC_LEVEL_NAME_TEMPLATE.format(
        value="'ultra'"))),
    ("x", {"min_size": 0, "mask": 99}, ("invalid-options", OUT_OF_RANGE.format("min-size", 1, 4096, 0))),
    ("x", {"quiet_zone": 99, "mask": 99}, ("invalid-options", OUT_OF_RANGE.format("quiet-zone", 0, 16, 99))),
    ("x", {"scale": 0, "micro": 1}, ("invalid-options", BOOLEAN.format("micro", "1"))),
    ("x", {"scale": 0, "micro": True}, ("invalid-options", OUT_OF_RANGE.format("scale", 1, 20, 0))),
    ("x", {"dark": "red", "version": 41}, ("invalid-options", _common.COLOR_TEMPLATE.format(
        option="dark", value="'red'"))),
    ("x", {"dark": "#000", "light": "#000", "version": 41}, ("invalid-options", SAME_COLORS.format("#000000ff"))),
    ("x", {"dark": "#fff", "light": "#fff", "micro": True, "ec_level": "high"},
     ("invalid-options", SAME_COLORS.format("#ffffffff"))),
    ("x", {"dark": "#000", "light": "#000", "boost_ec": "yes"},
     ("invalid-options", BOOLEAN.format("boost-ec", "'yes'"))),
    ("x", {"dark": "#000", "light": "#000", "boost_ec": True}, ("invalid-options", SAME_COLORS.format("#000000ff"))),
    # The symbol's own order: micro's type, version, min-version, both, mask, boost-ec's type, micro at high.
    ("x", {"micro": "yes", "version": 99}, ("invalid-options", BOOLEAN.format("micro", "'yes'"))),
    ("x", {"version": 99, "min_version": 99}, ("invalid-options", OUT_OF_RANGE.format("version", 1, 40, 99))),
    ("x", {"version": 1, "min_version": 99}, ("invalid-options", OUT_OF_RANGE.format("min-version", 1, 40, 99))),
    ("x", {"version": 1, "min_version": 2, "mask": 99}, ("invalid-options", CONFLICT)),
    ("x", {"micro": True, "ec_level": "high", "mask": 4}, ("invalid-options", OUT_OF_RANGE.format("mask", 0, 3, 4))),
    ("x", {"micro": True, "ec_level": "high", "boost_ec": 1}, ("invalid-options", BOOLEAN.format("boost-ec", "1"))),
    ("x", {"micro": True, "ec_level": "high", "boost_ec": True, "mask": 2}, ("invalid-options", MICRO_HIGH)),
    ("x", {"mask": 3, "boost_ec": 1}, ("invalid-options", BOOLEAN.format("boost-ec", "1"))),
    # Then encoding: a text the allowed versions cannot hold.
    ("a" * 100, {"version": 1},
     ("data-too-long", "text does not fit in version 1 at level low: it needs 812 data bits, version 1 holds 152")),
    ("abc", {"micro": True, "version": 1},
     ("data-too-long", "text does not fit in Micro QR version M1: M1 holds digits only")),
    ("a" * 30, {"micro": True},
     ("data-too-long", "text does not fit in a Micro QR code at level low: it needs 248 data bits, M4 holds 128")),
    ("a" * 2000, {"min_version": 30, "ec_level": "high"},
     ("data-too-long",
      "text does not fit in a QR code at level high: it needs 16020 data bits, version 40 holds 10208")),
]


@pytest.mark.parametrize("text, options, expected", ORDER, ids=[repr(o) for _, o, _ in ORDER])
def test_symbol_options_in_the_contracts_order(gen: Any, text: str, options: dict[str, Any],
                                               expected: tuple[str, str]) -> None:
    assert {outcome(render, text, **options) for render in every_output(gen)} == {("error", *expected)}
    # text's style (the host's) is checked after the text's and the options' host checks, before the guest's.
    style_error = ("invalid-options", _common.TEXT_STYLE_NAME_TEMPLATE.format(value="'sepia'"))
    host = (expected[0] == "invalid-text" or (expected[0] == "data-too-long" and len(text) > 7089)
            or any(words in expected[1] for words in ("must be a boolean", "must be a colour", "must be one of")))
    want = expected if host else style_error
    assert outcome(gen.text, text, style="sepia", **options) == ("error", *want)


# Good option sets, with the width of the code they ask for ("hello" alone is version 1, 21 modules).
GOOD: list[tuple[str, dict[str, Any], int]] = [
    ("hello", {"version": 5}, 37),
    ("hello", {"version": 40, "ec_level": "high"}, 177),
    ("hello", {"min_version": 10}, 57),
    ("hello", {"min_version": 1}, 21),
    ("x" * 100, {"min_version": 2}, 37),  # 100 bytes need version 5 at level low (version 4 holds 78)
    ("hello", {"mask": 0}, 21),
    ("hello", {"mask": 7, "ec_level": "quartile"}, 21),
    ("hello", {"boost_ec": True}, 21),
    (URL, {"boost_ec": True, "version": 6, "mask": 5}, 41),
    ("12345", {"micro": True}, 11),                      # M1
    ("12345", {"micro": True, "version": 4}, 17),        # M4
    ("HELLO", {"micro": True}, 13),                      # M2: alphanumeric
    ("hello", {"micro": True, "ec_level": "medium"}, 15),  # M3: bytes
    ("hello", {"micro": True, "min_version": 4, "mask": 3, "ec_level": "quartile"}, 17),
    ("12345", {"micro": True, "boost_ec": True, "mask": 0}, 11),
    ("hello", {"micro": False, "version": None, "min_version": None, "mask": None, "boost_ec": False}, 21),
]


@pytest.fixture(scope="module")
def generators() -> dict[str, Any]:
    return {name: make() for name, make in sorted(PATHS.items())}


@pytest.mark.parametrize("text, options, width", GOOD, ids=[f"{t[:8]}-{o!r}" for t, o, _ in GOOD])
def test_good_symbol_options_agree_on_every_path(generators: dict[str, Any], text: str, options: dict[str, Any],
                                                 width: int) -> None:
    answers = {name: (gen.png(text, **options), gen.svg(text, **options), gen.matrix(text, **options),
                      tuple(gen.text(text, style=style, **options) for style in qrglue.TEXT_STYLES),
                      gen.png_data_uri(text, **options), gen.svg_data_uri(text, **options))
               for name, gen in generators.items()}
    first = answers["native"]
    assert all(answer == first for answer in answers.values()), [n for n, a in answers.items() if a != first]
    assert first[2].width == width
    # The module functions give the same (component, raw, native).
    assert qrglue.png(text, **options) == qrglue.raw.png(text, **options) == qrglue.native.png(text, **options) \
        == first[0]
    assert qrglue.matrix(text, **options) == first[2]


def test_each_option_changes_the_code(generators: dict[str, Any]) -> None:
    # Options that ask for what the automatic choice would not pick give other modules.
    for gen in generators.values():
        default = gen.matrix(URL)
        masks = {gen.matrix(URL, mask=m).modules for m in range(8)}
        assert len(masks) == 8 and default.modules in masks
        # "hello" (5 bytes) at level low is version 1, which holds 7 bytes at level high.
        assert gen.matrix("hello", boost_ec=True) != gen.matrix("hello")
        assert gen.matrix("hello", boost_ec=True) == gen.matrix("hello", ec_level="high")
        assert gen.matrix("12345", micro=True).width == 11
        micro_masks = {gen.matrix("12345", micro=True, mask=m).modules for m in range(4)}
        assert len(micro_masks) == 4


@pytest.mark.parametrize("symbol, ec, options", [
    (Symbol(version=0), 0, {"version": 0}),
    (Symbol(version=41), 0, {"version": 41}),
    (Symbol(version=2**32 - 1), 0, {"version": 2**32 - 1}),
    (Symbol(min_version=0), 0, {"min_version": 0}),
    (Symbol(min_version=41), 0, {"min_version": 41}),
    (Symbol(micro=True, version=5), 0, {"micro": True, "version": 5}),
    (Symbol(micro=True, min_version=5), 0, {"micro": True, "min_version": 5}),
    (Symbol(version=2, min_version=2), 0, {"version": 2, "min_version": 2}),
    (Symbol(mask=8), 0, {"mask": 8}),
    (Symbol(mask=2**32 - 1), 0, {"mask": 2**32 - 1}),
    (Symbol(micro=True, mask=4), 0, {"micro": True, "mask": 4}),
    (Symbol(micro=True), 3, {"micro": True, "ec_level": "high"}),
    (Symbol(version=41, mask=8), 0, {"version": 41, "mask": 8}),
    (Symbol(version=1, min_version=1, mask=8), 0, {"version": 1, "min_version": 1, "mask": 8}),
    (Symbol(micro=True, mask=9), 3, {"micro": True, "mask": 9, "ec_level": "high"}),
])
def test_guest_says_what_the_host_says(wasm_gen: Any, symbol: Symbol, ec: int, options: dict[str, Any]) -> None:
    # The host refuses these before the call; the guest, handed them past
    # that check through this path's glue, must give the same error.
    with pytest.raises(QrError) as host:
        wasm_gen.png("12345", **options)
    calls = wasm_gen._calls
    for call in (calls.png, calls.svg, calls.matrix, functools.partial(calls.text, style=0),
                 functools.partial(calls.png_repeat, times=1)):
        with pytest.raises(QrError) as guest:
            call("12345", b"12345", checked(ec, symbol=symbol))
        assert (guest.value.kind, str(guest.value)) == (host.value.kind, str(host.value)) == (
            "invalid-options", host.value.message)
    # Equal colours first, in the guest too.
    with pytest.raises(QrError) as guest:
        calls.png("12345", b"12345", checked(ec, dark=0x11223344, light=0x11223344, symbol=symbol))
    assert str(guest.value) == SAME_COLORS.format("#11223344")


def test_the_glues_lower_each_call_s_own_symbol(generators: dict[str, Any]) -> None:
    # The fast component glue leaves `symbol: none` in place from call to
    # call and rewrites the record only when it changes: a sequence that
    # switches back and forth must give every call its own code.
    sequence: list[dict[str, Any]] = [
        {}, {"version": 5}, {}, {"version": 5}, {"version": 5, "mask": 2}, {"mask": 2}, {"min_version": 3},
        {"micro": True}, {"micro": True, "version": 3}, {}, {"boost_ec": True}, {"boost_ec": True, "mask": 1},
        {"micro": False, "version": None}, {"version": 7}, {},
    ]
    text = "12345"
    want = [generators["native"].matrix(text, **options) for options in sequence]
    assert len({(m.width, m.modules) for m in want}) >= 10
    for name, gen in generators.items():
        for _ in range(2):
            assert [gen.matrix(text, **options) for options in sequence] == want, name
            assert [gen.png(text, **options) for options in sequence] == [
                generators["native"].png(text, **options) for options in sequence], name
    # An error in between changes nothing for the next call.
    gen = generators["component"]
    gen.matrix(text, version=9)
    with pytest.raises(QrError):
        gen.matrix(text, version=1, micro=True, mask=9)
    assert gen.matrix(text) == want[0]


@pytest.mark.parametrize("glue", ["fast", "stock"])
def test_raw_symbol_flags(glue: str) -> None:
    # Straight to the raw ABI: a number is used only with its flag, and a
    # flags word with an unknown bit is refused with the contract's template.
    wasm_gen = qrglue.raw.Generator(glue=glue)
    calls: Any = wasm_gen._calls
    default = wasm_gen.matrix(URL)
    base = (0, 200, 4, 0, 0, 0x000000FF, 0xFFFFFFFF)

    def raw_matrix(flags: int, version: int, min_version: int, mask: int) -> Any:
        ptr, length = calls._lower(URL.encode())
        payload = calls._ok(calls._matrix(ptr, length, *base, flags, version, min_version, mask))
        return qrglue.QrMatrix(int.from_bytes(payload[:4], "little"), payload[4:])

    assert raw_matrix(0, 99, 99, 99) == default  # no flags: the numbers are ignored
    assert raw_matrix(4, 9, 0, 0) == wasm_gen.matrix(URL, version=9)
    assert raw_matrix(8 | 16, 0, 7, 3) == wasm_gen.matrix(URL, min_version=7, mask=3)
    assert raw_matrix(2, 0, 0, 0) == wasm_gen.matrix(URL, boost_ec=True)
    assert raw_matrix(32, 0, 0, 0) == wasm_gen.matrix(URL, eci=True) != default
    for flags in (64, 127, 2**32 - 1):
        with pytest.raises(QrError) as info:
            raw_matrix(flags, 0, 0, 0)
        assert (info.value.kind, str(info.value)) == (
            "invalid-options", OUT_OF_RANGE.format("symbol-flags", 0, 63, flags))


def test_a_call_naming_no_option_takes_the_checked_defaults(generators: dict[str, Any]) -> None:
    # check_input hands a call that names no option the prebuilt DEFAULT_OPTIONS
    # (the glues then lower nothing anew: the fast glue keeps the entries of the
    # same object, raw keeps its flat arguments); the same values as other
    # objects take the full checks and must give equal options.
    from qrglue import _common
    text = "https://example.com/"
    defaults = _common.check_input(text, _common.DEFAULT_EC_LEVEL, _common.DEFAULT_MIN_SIZE,
                                   _common.DEFAULT_QUIET_ZONE)[2]
    assert defaults is _common.DEFAULT_OPTIONS
    spelled = _common.check_input(text, "".join("low"), int("200"), int("4"), None, "".join("#000000ff"),
                                  "".join("#ffffffff"), False, None, None, None, False)[2]
    assert spelled is not _common.DEFAULT_OPTIONS and spelled == _common.DEFAULT_OPTIONS
    assert _common.check_input(b"payload", _common.DEFAULT_EC_LEVEL, _common.DEFAULT_MIN_SIZE,
                               _common.DEFAULT_QUIET_ZONE)[2] is _common.DEFAULT_OPTIONS
    # Default calls between calls with every kind of option give the default
    # bytes on every path: nothing of an earlier call's options stays behind.
    sequence: list[dict[str, Any]] = [
        {}, {"scale": 3}, {}, {"dark": "#336699", "light": "#fff0"}, {}, {"quiet_zone": 0, "min_size": 10},
        {}, {"ec_level": "high"}, {}, {"mask": 3}, {}, {"ec_level": "low", "min_size": 200, "quiet_zone": 4}, {},
    ]
    want = [generators["native"].png(text, **options) for options in sequence]
    assert len(set(want)) == 6  # the default and five other codes: the last set spells the defaults
    for name, gen in generators.items():
        assert [gen.png(text, **options) for options in sequence] == want, name
