"""The raw path's fast core calls (_rawcore.FastCore) return exactly what
wasmtime-py's own calls return, keep trap recovery, refuse a module whose
signatures differ, and fall back cleanly on other wasmtime-py versions."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import qrglue
import qrglue.native
import qrglue.raw
from conftest import CASES, EXPECTED, checked
from corpus import case_input, case_options, case_svg_options, case_text, sha256
from qrglue import QrError, _loader, _rawcore
from qrglue._common import Symbol

FAST = qrglue.raw.Generator(glue="fast")
STOCK = qrglue.raw.Generator(glue="stock")


def outcome(call: Any, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
    try:
        return "ok", call(*args, **kwargs)
    except QrError as e:
        return "error", e.kind, str(e)


def test_fast_raw_glue_is_on_for_the_pinned_wasmtime() -> None:
    assert _loader.wasmtime_version() == _loader.SUPPORTED_WASMTIME
    assert FAST.fast and not STOCK.fast
    assert qrglue.raw.Generator().fast  # the default
    fast_calls, stock_calls = FAST._calls, STOCK._calls
    assert isinstance(fast_calls, qrglue.raw.RawCalls) and isinstance(stock_calls, qrglue.raw.RawCalls)
    assert isinstance(fast_calls._core, _rawcore.FastCore)
    assert isinstance(stock_calls._core, _rawcore.StockCore)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_same_as_stock_on_vectors(case: dict[str, Any]) -> None:
    text, options = case_input(case), case_options(case)
    for method in ("png", "svg", "matrix"):
        given = {**options, **case_svg_options(case)} if method == "svg" else options
        assert outcome(getattr(FAST, method), text, **given) == outcome(getattr(STOCK, method), text, **given)
    for style in qrglue.TEXT_STYLES:
        assert outcome(FAST.text, text, style=style, **options) == outcome(STOCK.text, text, style=style, **options)


@settings(max_examples=300, derandomize=True, deadline=None, database=None)
@given(text=st.text(max_size=40), ec=st.sampled_from(["low", "medium", "quartile", "high"]),
       min_size=st.sampled_from([1, 21, 57, 4096]), quiet_zone=st.integers(0, 16),
       times=st.integers(0, 2), style=st.sampled_from(qrglue.TEXT_STYLES),
       scale=st.sampled_from([None, 1, 4, 0, 21]), dark=st.sampled_from(["#000", "#336699cc", "#fff", "red"]),
       light=st.sampled_from(["#fff", "#ffffff00", "#000", "#1"]),
       symbol=st.fixed_dictionaries({}, optional={
           "micro": st.booleans(), "version": st.sampled_from([None, 0, 1, 4, 5, 40, 41]),
           "min_version": st.sampled_from([None, 1, 3, 41]), "mask": st.sampled_from([None, 0, 3, 4, 7, 8]),
           "boost_ec": st.booleans(), "eci": st.booleans()}))
def test_same_as_stock_on_random_input(text: str, ec: str, min_size: int, quiet_zone: int, times: int,
                                       style: str, scale: int | None, dark: str, light: str,
                                       symbol: dict[str, Any]) -> None:
    options = dict(ec_level=ec, min_size=min_size, quiet_zone=quiet_zone, scale=scale, dark=dark, light=light,
                   **symbol)
    assert outcome(FAST.png, text, **options) == outcome(STOCK.png, text, **options)
    assert outcome(FAST.svg, text, **options) == outcome(STOCK.svg, text, **options)
    assert outcome(FAST.matrix, text, **options) == outcome(STOCK.matrix, text, **options)
    assert outcome(FAST.text, text, style=style, **options) == outcome(STOCK.text, text, style=style, **options)
    assert outcome(FAST.png_repeat, text, times, **options) == outcome(STOCK.png_repeat, text, times, **options)


@settings(max_examples=300, derandomize=True, deadline=None, database=None)
@given(data=st.one_of(st.binary(max_size=60), st.binary(min_size=1000, max_size=2000)),
       form=st.sampled_from(["bytes", "bytearray", "memoryview"]), ec=st.sampled_from(["low", "high"]),
       min_size=st.sampled_from([0, 21, 5000]), style=st.sampled_from([*qrglue.TEXT_STYLES, "sepia"]),
       scale=st.sampled_from([None, 3, 21]), mask=st.sampled_from([None, 2, 8]))
def test_payloads_same_as_stock_on_random_input(data: bytes, form: str, ec: str, min_size: int, style: str,
                                                scale: int | None, mask: int | None) -> None:
    payload = {"bytes": bytes, "bytearray": bytearray, "memoryview": memoryview}[form](data)
    options = dict(ec_level=ec, min_size=min_size, scale=scale, mask=mask)
    assert outcome(FAST.png, payload, **options) == outcome(STOCK.png, payload, **options)
    assert outcome(FAST.svg, payload, **options) == outcome(STOCK.svg, payload, **options)
    assert outcome(FAST.matrix, payload, **options) == outcome(STOCK.matrix, payload, **options)
    assert outcome(FAST.text, payload, style=style, **options) == outcome(STOCK.text, payload, style=style,
                                                                           **options)


def test_a_payload_goes_to_the_bytes_exports_unchecked_a_text_to_the_text_ones() -> None:
    # The same bytes that are no UTF-8: the text exports refuse them (the
    # guest's own check, invalid-text), the _bytes exports make their code.
    for gen in (FAST, STOCK):
        for data in (b"\xff\xfe", b"\xed\xa0\x80", memoryview(b"ok\x80")):
            text_call = outcome(gen._calls.png, "(unused)", bytes(data), checked())
            assert text_call[:2] == ("error", "invalid-text")
            assert gen._calls.png_bytes(data, checked()) == qrglue.native.png(data)
            assert gen._calls.matrix_bytes(data, checked()) == qrglue.native.matrix(data)
            assert gen._calls.svg_bytes(data, checked()) == qrglue.native.svg(data)
            assert gen._calls.text_bytes(data, checked(), 2) == qrglue.native.text(data, style="ascii")


@pytest.mark.parametrize("size", [0, 1, 251, 65536, 1 << 20])
def test_probes_same_as_stock(size: int) -> None:
    assert FAST.produce(size) == STOCK.produce(size) == bytes(i % 251 for i in range(size))
    data = bytes((i * 7 + 3) % 256 for i in range(size))
    assert FAST.consume(data) == STOCK.consume(data) == size
    assert FAST.memory_pages() > 0 and STOCK.memory_pages() > 0


def test_guest_calls_past_the_host_checks_match_stock() -> None:
    # Unchecked values straight into the guest (an ec-level index past 3,
    # sizes and scales out of range, equal colours): the guest's own errors,
    # equal through both cores.
    symbols = (Symbol(version=0), Symbol(micro=True, min_version=5), Symbol(version=1, min_version=1),
               Symbol(mask=2**32 - 1), Symbol(micro=True, mask=4))
    all_options = [checked(*args) for args in ((4, 200, 4), (0, 0, 4), (0, 200, 17), (0, 2**32 - 1, 2**32 - 1),
                                               (0, 200, 4, 0), (0, 200, 4, 2**32 - 1),
                                               (0, 200, 4, None, 0x11223344, 0x11223344))]
    all_options += [checked(symbol=symbol) for symbol in symbols] + [checked(3, symbol=Symbol(micro=True))]
    for options in all_options:
        calls = [("png", (options,)), ("matrix", (options,)), ("text", (options, 0)), ("text", (options, 3))]
        for name, call_args in calls:
            fast = outcome(getattr(FAST._calls, name), "x", b"x", *call_args)
            stock = outcome(getattr(STOCK._calls, name), "x", b"x", *call_args)
            assert fast == stock and fast[:2] == ("error", "invalid-options")
            # The _bytes exports check the options alike.
            fast_bytes = outcome(getattr(FAST._calls, f"{name}_bytes"), b"\xff", *call_args)
            assert fast_bytes == outcome(getattr(STOCK._calls, f"{name}_bytes"), b"\xff", *call_args) == fast
    # A style index past 2 with every option fine.
    fast = outcome(FAST._calls.text, "x", b"x", checked(), 3)
    assert fast == outcome(STOCK._calls.text, "x", b"x", checked(), 3) and fast[:2] == ("error", "invalid-options")


def test_fast_trap_recovery_and_produce_limit() -> None:
    gen = qrglue.raw.Generator(glue="fast")
    with pytest.raises(qrglue.GuestTrap) as info:
        gen.trap()
    assert "unreachable" in str(info.value.__cause__)
    assert sha256(gen.png(case_text(CASES[0]), **case_options(CASES[0]))) == EXPECTED[CASES[0]["id"]]["png_sha256"]
    with pytest.raises(QrError) as too_big:
        gen.produce(16 * 1024 * 1024 + 1)  # the raw probe refuses past 16 MiB
    assert too_big.value.kind == "invalid-options"
    assert gen.produce(3) == b"\x00\x01\x02"


def test_signature_mismatch_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(_rawcore.EXPECTED_SIGNATURES, "qr_png", (4, 1))
    monkeypatch.setattr(_rawcore, "_checked_modules", set())
    with pytest.raises(RuntimeError, match="fast raw glue expects"):
        qrglue.raw.Generator(glue="fast")


def test_fallback_on_other_wasmtime_versions_warns_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_loader, "_wasmtime_version", "51.0.0")
    monkeypatch.setattr(_rawcore, "_warned", False)
    with pytest.warns(RuntimeWarning, match="51.0.0"):
        first = qrglue.raw.Generator()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        second = qrglue.raw.Generator()  # no second warning
    assert not first.fast and not second.fast
    assert first.png("fallback") == FAST.png("fallback")
    with pytest.raises(RuntimeError):
        qrglue.raw.Generator(glue="fast")
    with pytest.raises(ValueError):
        qrglue.raw.Generator(glue="quick")


def test_bindings_without_a_used_function_fall_back(monkeypatch: pytest.MonkeyPatch) -> None:
    from wasmtime import _bindings

    monkeypatch.delattr(_bindings, "_wasmtime_func_call_unchecked")
    monkeypatch.setattr(_rawcore, "_warned", False)
    assert not _rawcore.layout_matches()
    with pytest.warns(RuntimeWarning, match="fast raw glue"):
        gen = qrglue.raw.Generator()
    assert not gen.fast
    assert gen.png("fallback") == FAST.png("fallback")

