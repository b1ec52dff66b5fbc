"""The component path: qrglue.component.wasm through wasmtime-py's component API.

`StockCalls` uses wasmtime-py's own conversions (`Func.__call__`). How its
values come back, read from wasmtime-py 50.0.1 (component/_types.py):
- `result<T, qr-error>` is *untagged* because the ok and error cases have
  distinct Python classes: the call returns the ok value itself (bytes, str,
  int) or the error payload, and raises nothing.
- `qr-error` itself is *tagged* (two cases have no payload, so they would be
  indistinguishable): it arrives as `wasmtime.component.Variant(tag, payload)`,
  which is how we recover the kind, including `empty-text` and
  `data-too-long` that carry no message.
- records are `wasmtime.component.Record` objects with one attribute per
  field; WIT field names have hyphens, so they are set with setattr.
"""

from __future__ import annotations

from typing import Any, NoReturn

import wasmtime
from wasmtime import component as wc

from . import _loader
from ._common import EC_LEVELS, QrError
from ._generator import BaseGenerator, Calls

GENERATOR_INTERFACE = "qrglue:qr/generator@0.1.0"
PROBE_INTERFACE = "qrglue:qr/probe@0.1.0"


def instantiate() -> "tuple[wasmtime.Store, wc.Instance]":
    """A fresh Store and component instance (the component imports nothing)."""
    engine = _loader.engine()
    store = wasmtime.Store(engine)
    instance = wc.Linker(engine).instantiate(store, _loader.component())
    return store, instance


def export_func(store: wasmtime.Store, instance: wc.Instance, interface: str, name: str) -> wc.Func:
    interface_index = instance.get_export_index(store, interface)
    func_index = instance.get_export_index(store, name, interface_index) if interface_index else None
    func = instance.get_func(store, func_index) if func_index else None
    if func is None:
        raise RuntimeError(f"component does not export {interface}#{name}")
    return func


def raise_qr_error(error: Any) -> NoReturn:
    """Turn a lifted `qr-error` (a tagged Variant) into QrError."""
    if isinstance(error, wc.Variant):
        raise QrError(error.tag, error.payload)
    raise TypeError(f"unexpected value from the guest: {error!r}")


class StockCalls:
    """Calls through wasmtime-py's stock conversion, unchanged."""

    def __init__(self) -> None:
        self.store, instance = instantiate()
        gen = GENERATOR_INTERFACE
        self._png = export_func(self.store, instance, gen, "png")
        self._svg = export_func(self.store, instance, gen, "svg")
        self._noop = export_func(self.store, instance, PROBE_INTERFACE, "noop")
        self._consume = export_func(self.store, instance, PROBE_INTERFACE, "consume")
        self._produce = export_func(self.store, instance, PROBE_INTERFACE, "produce")
        self._png_repeat = export_func(self.store, instance, PROBE_INTERFACE, "png-repeat")
        self._trap = export_func(self.store, instance, PROBE_INTERFACE, "trap")
        self._memory_pages = export_func(self.store, instance, PROBE_INTERFACE, "memory-pages")

    @staticmethod
    def _options(ec: int, min_size: int, quiet_zone: int) -> wc.Record:
        options = wc.Record()
        setattr(options, "ec-level", EC_LEVELS[ec])
        setattr(options, "min-size", min_size)
        setattr(options, "quiet-zone", quiet_zone)
        return options

    def png(self, text: str, data: bytes, ec: int, min_size: int, quiet_zone: int) -> bytes:
        out = self._png(self.store, text, self._options(ec, min_size, quiet_zone))
        if isinstance(out, bytes):
            return out
        raise_qr_error(out)

    def svg(self, text: str, data: bytes, ec: int, min_size: int, quiet_zone: int) -> str:
        out = self._svg(self.store, text, self._options(ec, min_size, quiet_zone))
        if isinstance(out, str):
            return out
        raise_qr_error(out)

    def png_repeat(self, text: str, data: bytes, ec: int, min_size: int, quiet_zone: int,
                   times: int) -> int:
        out = self._png_repeat(self.store, text, self._options(ec, min_size, quiet_zone), times)
        if isinstance(out, int):
            return out
        raise_qr_error(out)

    def noop(self) -> None:
        self._noop(self.store)

    def consume(self, data: bytes) -> int:
        return int(self._consume(self.store, data))

    def produce(self, length: int) -> bytes:
        return bytes(self._produce(self.store, length))

    def trap(self) -> None:
        self._trap(self.store)

    def memory_pages(self) -> int:
        return int(self._memory_pages(self.store))


class Generator(BaseGenerator):
    """The component path on its own Store. See BaseGenerator for thread safety.

    `glue`: "auto" (default) uses the fast glue (`_fastglue.py`) when the
    installed wasmtime-py is the version it was written for, else the stock
    conversion with one warning; "fast" insists (RuntimeError otherwise);
    "stock" always uses wasmtime-py's own conversion.
    """

    def __init__(self, *, glue: str = "auto") -> None:
        from . import _fastglue

        if glue not in ("auto", "fast", "stock"):
            raise ValueError(f"glue must be auto, fast or stock, not {glue!r}")
        if glue == "fast" and not _fastglue.available():
            raise RuntimeError("the fast component glue is not available for this wasmtime-py")
        self.fast = glue != "stock" and _fastglue.available()
        super().__init__()

    def _new_calls(self) -> Calls:
        if self.fast:
            from ._fastglue import FastCalls

            return FastCalls()
        return StockCalls()
