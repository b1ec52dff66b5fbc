"""The Extism path (qrglue.extism) against the raw path: the same bytes for
texts and payloads, every error kind with the same message (Extism's
"<kind>: <message>" mapped back to QrError), the probes, and a failure of
the plug-in call retiring the instance."""

from __future__ import annotations

from typing import Any

import pytest

import qrglue.extism
import qrglue.raw
from qrglue import QrError


@pytest.fixture(scope="module")
def both() -> tuple[qrglue.extism.Generator, qrglue.raw.Generator]:
    return qrglue.extism.Generator(), qrglue.raw.Generator()


@pytest.mark.parametrize("payload", ["hello", "Ünïcödé ✓", b"\x00\xff\x07\x80", bytearray(b"abc"), memoryview(b"xyz")])
def test_outputs_equal_raw(both: tuple[qrglue.extism.Generator, qrglue.raw.Generator], payload: Any) -> None:
    ext, raw = both
    assert ext.png(payload, scale=3) == raw.png(payload, scale=3)
    svg: dict[str, Any] = {"title": "a <title>", "svg_class": "qr big", "view_box_only": True, "dark": "#123456"}
    assert ext.svg(payload, **svg) == raw.svg(payload, **svg)
    assert ext.matrix(payload, ec_level="high") == raw.matrix(payload, ec_level="high")
    for style in ("half-blocks", "half-blocks-inverted", "ascii"):
        assert ext.text(payload, style=style) == raw.text(payload, style=style)


@pytest.mark.parametrize("call", [
    ("png", "", {}),
    ("png", "a\ud800b", {}),
    ("png", "x" * 8000, {}),
    ("png", "é" * 2000, {}),
    ("png", "a", {"min_size": 0}),
    ("png", "a", {"dark": "not a colour"}),
    ("png", "a", {"dark": "#000", "light": "#000"}),
    ("png", b"", {}),
    ("svg", "a", {"title": "bad \x01"}),
    ("text", "a", {"style": "no-such-style"}),
    ("matrix", "a", {"micro": True, "ec_level": "high"}),
    ("png", "a", {"min_size": 0, "dark": "bad"}),  # the guest's check comes before the host's
])
def test_errors_equal_raw(both: tuple[qrglue.extism.Generator, qrglue.raw.Generator],
                          call: tuple[str, Any, dict[str, Any]]) -> None:
    ext, raw = both
    name, payload, options = call
    with pytest.raises(QrError) as want:
        getattr(raw, name)(payload, **options)
    instances = ext.instances
    with pytest.raises(QrError) as got:
        getattr(ext, name)(payload, **options)
    assert (got.value.kind, str(got.value)) == (want.value.kind, str(want.value))
    assert ext.instances == instances  # a contract error keeps the instance


def test_probes(both: tuple[qrglue.extism.Generator, qrglue.raw.Generator]) -> None:
    ext, raw = both
    ext.noop()
    assert ext.consume(bytes(100_000)) == 100_000
    assert ext.produce(1000) == raw.produce(1000)
    assert ext.png_repeat("repeat", 3) == len(raw.png("repeat"))
    with pytest.raises(QrError) as error:
        ext.produce(1 << 30)
    assert error.value.kind == "invalid-options"


def test_failed_call_retires_the_instance() -> None:
    ext = qrglue.extism.Generator()
    # Input shorter than its option words: the plug-in's malformed-input, not a contract kind.
    with pytest.raises(qrglue.GuestTrap, match="malformed-input"):
        ext._enter(lambda calls: calls._call("qr_png", b"\x01\x02"))  # type: ignore[attr-defined]
    assert ext.png("after") == qrglue.raw.png("after")
    assert ext.instances == 2
