"""Bad input on every path: every error kind with its message, range messages,
type errors, keyword-only options, bad text styles, the probes; and
str/int/bytes subclasses that lie about themselves get exactly the plain
value's result. png, svg, matrix and text answer every bad input alike."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pytest

import qrglue
import qrglue.native
import qrglue.raw
from qrglue import QrError


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
def test_bad_text_style_is_invalid_options_checked_last(gen: Any, style: Any, shown: str) -> None:
    message = TEXT_STYLE_NAME.format(shown)
    assert _outcome(gen.text, ("hello",), {"style": style}) == ("error", "invalid-options", message)
    # After every option: a bad option wins, whatever the style ...
    assert _outcome(gen.text, ("hello",), {"style": style, "quiet_zone": 17}) == _outcome(
        gen.png, ("hello",), {"quiet_zone": 17})
    assert _outcome(gen.text, ("hello",), {"style": style, "ec_level": "ultra", "min_size": 0}) == _outcome(
        gen.png, ("hello",), {"ec_level": "ultra", "min_size": 0})
    # ... and so does every text error.
    for text in ("", "\ud800", "x" * 7090):
        assert _outcome(gen.text, (text,), {"style": style}) == _outcome(gen.png, (text,), {})
    # A text fine for every option but too big for its EC level: the style is an
    # option, checked before the capacity (as a bad min-size is).
    assert _outcome(gen.text, ("a" * 3000,), {"style": style, "ec_level": "high"}) == (
        "error", "invalid-options", message)


def test_range_messages_name_the_option(gen: Any) -> None:
    with pytest.raises(QrError) as info:
        gen.png("x", min_size=5000)
    assert str(info.value) == info.value.message == "min-size must be within 1..=4096, got 5000"


def test_non_str_text_is_a_type_error(gen: Any) -> None:
    for render in every_output(gen):
        with pytest.raises(TypeError):
            render(b"bytes")


def test_options_are_keyword_only() -> None:
    with pytest.raises(TypeError):
        qrglue.png("x", "low")  # type: ignore[call-arg]  # deliberately positional: must be refused
    with pytest.raises(TypeError):
        qrglue.text("x", "ascii")  # type: ignore[call-arg]  # the style too
    with pytest.raises(TypeError):
        qrglue.matrix("x", "low")  # type: ignore[call-arg]


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
