"""The raw glue on wasm3 (qrglue.wasm3): the same bytes and errors as the
raw path on wasmtime-py, and a trap that retires the instance. (The whole
corpus runs on it in conformance: tests/conformance/run.py, python-wasm3.)"""

from __future__ import annotations

import pytest

import qrglue.raw
import qrglue.wasm3
from qrglue import GuestTrap, QrError


@pytest.fixture(scope="module")
def gen() -> qrglue.wasm3.Generator:
    return qrglue.wasm3.Generator()


@pytest.mark.parametrize("payload", ["https://www.reddit.com/r/rustjerk/top/?t=all", "Ünïcödé ✓", b"\x00\xff\x07"])
def test_outputs_equal_raw(gen: qrglue.wasm3.Generator, payload: str | bytes) -> None:
    assert gen.png(payload) == qrglue.raw.png(payload)
    assert gen.svg(payload, title="t") == qrglue.raw.svg(payload, title="t")
    assert gen.matrix(payload, micro=False) == qrglue.raw.matrix(payload, micro=False)
    assert gen.text(payload, style="ascii") == qrglue.raw.text(payload, style="ascii")


@pytest.mark.parametrize("payload, options", [("", {}), ("a", {"min_size": 0}), ("a" * 3000, {"ec_level": "high"})])
def test_errors_equal_raw(gen: qrglue.wasm3.Generator, payload: str, options: dict[str, int | str]) -> None:
    with pytest.raises(QrError) as want:
        qrglue.raw.png(payload, **options)  # type: ignore[arg-type]
    with pytest.raises(QrError) as got:
        gen.png(payload, **options)  # type: ignore[arg-type]
    assert (got.value.kind, str(got.value)) == (want.value.kind, str(want.value))


def test_trap_retires_the_instance() -> None:
    gen = qrglue.wasm3.Generator()
    with pytest.raises(GuestTrap):
        gen.trap()
    assert gen.png("after") == qrglue.raw.png("after")
    assert gen.instances == 2
