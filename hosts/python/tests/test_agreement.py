"""The three paths (component, raw, native) agree on random texts and options,
and on random binary payloads (hypothesis, derandomized) in every output, and
the module functions are correct under threads."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import qrglue
import qrglue.native
import qrglue.raw
from qrglue import QrError

# >= 2,000 examples in CI; QRGLUE_HYPOTHESIS_EXAMPLES overrides for local runs.
EXAMPLES = int(os.environ.get("QRGLUE_HYPOTHESIS_EXAMPLES", "2000"))

COMPONENT = qrglue.Generator()
RAW = qrglue.raw.Generator()
NATIVE = qrglue.native.Generator()


def outcome(render: Callable[..., Any], text: str, options: dict[str, Any]) -> tuple[Any, ...]:
    try:
        return "ok", render(text, **options)
    except QrError as e:
        return "error", e.kind, str(e)


def without_style(options: dict[str, Any]) -> dict[str, Any]:
    """The options png, svg and matrix take: all but text's `style`."""
    return {name: value for name, value in options.items() if name != "style"}


def every_path_agrees(text: Any, options: dict[str, Any]) -> tuple[Any, ...]:
    """Every output of `text` (a str or a bytes-like payload) on the three
    paths: the same outcome on each, and when png fails, every output fails
    alike (a bad style only concerns text, and only once the rest is fine).
    `options` may hold `style`, which only text takes. Returns the outcomes of
    png and text."""
    text_options = options
    options = without_style(options)
    png = outcome(COMPONENT.png, text, options)
    assert png == outcome(RAW.png, text, options) == outcome(NATIVE.png, text, options)
    svg = outcome(COMPONENT.svg, text, options)
    assert svg == outcome(RAW.svg, text, options) == outcome(NATIVE.svg, text, options)
    matrix = outcome(COMPONENT.matrix, text, options)
    assert matrix == outcome(RAW.matrix, text, options) == outcome(NATIVE.matrix, text, options)
    drawn = outcome(COMPONENT.text, text, text_options)
    assert drawn == outcome(RAW.text, text, text_options) == outcome(NATIVE.text, text, text_options)
    if png[0] == "error":
        assert matrix == svg == png and (drawn == png or text_options.get("style") == "other")
    return png, drawn


options_strategy = st.fixed_dictionaries({}, optional={
    "ec_level": st.sampled_from(["low", "medium", "quartile", "high", "other"]),
    "style": st.sampled_from(["half-blocks", "half-blocks-inverted", "ascii", "other"]),  # text only
    # mostly small sizes (fast), sometimes the bounds and beyond
    "min_size": st.one_of(st.integers(0, 120), st.sampled_from([1, 4096, 4097, 2**32 - 1])),
    "quiet_zone": st.integers(0, 18),
    # the symbol options: mostly good, sometimes out of range (the micro bounds too), or both versions given
    "micro": st.booleans(),
    "version": st.one_of(st.none(), st.integers(0, 41)),
    "min_version": st.one_of(st.none(), st.integers(0, 6)),
    "mask": st.one_of(st.none(), st.integers(0, 8)),
    "boost_ec": st.booleans(),
})

# st.text() never produces surrogates; add lone ones explicitly.
texts = st.one_of(
    st.text(max_size=60),
    st.text(alphabet=st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), min_size=1, max_size=3),
    st.builds(lambda a, s, b: a + s + b, st.text(max_size=20),
              st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), st.text(max_size=20)),
    st.text(alphabet="0123456789", min_size=0, max_size=300),
)


@settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(text=texts, options=options_strategy)
def test_component_raw_and_native_agree(text: str, options: dict[str, Any]) -> None:
    png, drawn = every_path_agrees(text, options)
    if drawn[0] == "error" and png[0] == "ok":
        assert drawn == ("error", "invalid-options", "text-style must be one of half-blocks, "
                         "half-blocks-inverted, ascii, got 'other'")
    has_surrogate = any(0xD800 <= ord(c) <= 0xDFFF for c in text)
    if has_surrogate:
        assert png == ("error", "invalid-text", "text contains a lone surrogate (not encodable as UTF-8)")
    elif text == "" and options.get("ec_level") != "other":
        # empty-text, the guest's first check, after the host's (an ec-level WIT has no case for).
        assert png == ("error", "empty-text", "text is empty")


# Any bytes, mostly not UTF-8: short, near the byte-mode capacities (2953
# bytes at level low, 1273 at high) and the 7089-byte bound, runs of digits
# and alphanumerics (their own segments), and as the three bytes-like types.
ALNUM = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
payloads = st.one_of(
    st.binary(max_size=80),
    st.binary(max_size=80),
    st.binary(min_size=1200, max_size=3000),
    st.lists(st.one_of(st.sampled_from(list(ALNUM)), st.integers(0, 255)), max_size=400).map(bytes),
    st.sampled_from([7088, 7089, 7090, 2953, 2954, 0]).map(lambda n: b"\xb5" * n),
)
FORMS: dict[str, Callable[[bytes], Any]] = {"bytes": bytes, "bytearray": bytearray,
                                            "memoryview": lambda data: memoryview(bytearray(data))}


@settings(max_examples=max(EXAMPLES // 2, 1), derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=payloads, form=st.sampled_from(sorted(FORMS)), options=options_strategy)
def test_every_path_agrees_on_random_binary_payloads_and_options(data: bytes, form: str,
                                                                 options: dict[str, Any]) -> None:
    png, drawn = every_path_agrees(FORMS[form](data), options)
    # Never invalid-text: a payload is not decoded.
    assert png[:2] != ("error", "invalid-text") and drawn[:2] != ("error", "invalid-text")
    if not data and options.get("ec_level") != "other":
        assert png == ("error", "empty-text", "text is empty")
    elif len(data) > 7089:
        assert png == ("error", "data-too-long", "text does not fit in any QR code: "
            "it is over 7089 bytes, the most one holds")
    # Bytes that are a text's UTF-8 give that text's code.
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    assert png == outcome(COMPONENT.png, text, without_style(options))


def test_threads_each_get_correct_results() -> None:
    texts = [f"thread text {i} ✓" for i in range(8)]
    expected = {t: (qrglue.png(t), qrglue.raw.png(t)) for t in texts}
    failures: list[Any] = []

    def work(seed: int) -> None:
        try:
            for i in range(300):
                t = texts[(seed + i) % len(texts)]
                if (qrglue.png(t), qrglue.raw.png(t)) != expected[t]:
                    failures.append((seed, i))
                if i % 50 == 0:
                    try:
                        qrglue.png("")
                        failures.append((seed, i, "no error"))
                    except QrError as e:
                        if e.kind != "empty-text":
                            failures.append((seed, i, e.kind))
        except Exception as e:  # pragma: no cover - reported below
            failures.append(repr(e))

    threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
