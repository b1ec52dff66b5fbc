"""The raw path: qrglue.raw.wasm through hand-written glue (guest/raw/ABI.md).

Same API as `qrglue`: `png`, `svg`, `Generator`, `QrError`. The glue is
written against wasmtime-py's core API: three guest calls per render
(`qr_alloc`, the export, `qr_free`), bytes moved with ctypes.memmove into /
ctypes.string_at out of linear memory at `Memory.data_ptr` (re-read after
every call that may grow memory), every payload copied out before it is freed.
"""

from __future__ import annotations

import ctypes

import wasmtime

from . import _loader
from ._common import RAW_ABI_VERSION as ABI_VERSION
from ._common import RAW_RECORD_BYTES, RAW_STATUS_KINDS, RAW_STATUS_OK, GuestTrap, QrError
from ._generator import BaseGenerator, Calls, PerThread

__all__ = ["Generator", "GuestTrap", "QrError", "png", "svg"]


class RawCalls:
    def __init__(self) -> None:
        self.store = store = wasmtime.Store(_loader.engine())
        instance = wasmtime.Instance(store, _loader.raw_module(), [])
        exports = instance.exports(store)
        memory = exports["memory"]
        if not isinstance(memory, wasmtime.Memory):
            raise RuntimeError("qrglue.raw.wasm exports no memory")
        self._memory = memory

        def func(name: str) -> wasmtime.Func:
            export = exports[name]
            if not isinstance(export, wasmtime.Func):
                raise RuntimeError(f"qrglue.raw.wasm export {name} is not a function")
            return export

        self._alloc = func("qr_alloc")
        self._free = func("qr_free")
        self._png = func("qr_png")
        self._svg = func("qr_svg")
        self._png_repeat = func("qr_png_repeat")
        self._noop = func("qr_noop")
        self._consume = func("qr_consume")
        self._produce = func("qr_produce")
        self._trap = func("qr_trap")
        self._memory_pages = func("qr_memory_pages")
        version = func("qr_abi_version")(store)
        if version != ABI_VERSION:
            raise RuntimeError(f"qrglue.raw.wasm speaks ABI {version}, this glue speaks {ABI_VERSION}")

    def _base(self, end: int) -> int:
        """Address of linear memory, after checking [0, end) lies inside it."""
        if end > self._memory.data_len(self.store):
            raise RuntimeError("the guest returned a pointer outside its memory")
        return ctypes.addressof(self._memory.data_ptr(self.store).contents)

    def _lower(self, data: bytes) -> tuple[int, int]:
        """Copy data into a fresh guest buffer; the next guest call owns it."""
        if not data:
            return 0, 0
        ptr = self._alloc(self.store, len(data))
        if ptr == 0:
            raise MemoryError(f"qr_alloc({len(data)}) failed in the guest")
        ctypes.memmove(self._base(ptr + len(data)) + ptr, data, len(data))
        return ptr, len(data)

    def _take(self, record: int) -> tuple[int, bytes]:
        """Read a result record, copy its payload out, free it."""
        base = self._base(record + RAW_RECORD_BYTES)
        status, payload_ptr, payload_len = (int.from_bytes(ctypes.string_at(base + record + i, 4), "little")
                                            for i in (0, 4, 8))
        payload = ctypes.string_at(self._base(payload_ptr + payload_len) + payload_ptr, payload_len) \
            if payload_len else b""
        self._free(self.store, record)
        return status, payload

    def _ok(self, record: int) -> bytes:
        status, payload = self._take(record)
        if status == RAW_STATUS_OK:
            return payload
        kind = RAW_STATUS_KINDS.get(status)
        if kind is None:
            raise RuntimeError(f"unknown status {status} from the guest")
        raise QrError(kind, payload.decode("utf-8") or None)

    def png(self, text: str, data: bytes, ec: int, min_size: int, quiet_zone: int) -> bytes:
        ptr, length = self._lower(data)
        return self._ok(self._png(self.store, ptr, length, ec, min_size, quiet_zone))

    def svg(self, text: str, data: bytes, ec: int, min_size: int, quiet_zone: int) -> str:
        ptr, length = self._lower(data)
        return self._ok(self._svg(self.store, ptr, length, ec, min_size, quiet_zone)).decode("utf-8")

    def png_repeat(self, text: str, data: bytes, ec: int, min_size: int, quiet_zone: int,
                   times: int) -> int:
        ptr, length = self._lower(data)
        payload = self._ok(self._png_repeat(self.store, ptr, length, ec, min_size, quiet_zone, times))
        return int.from_bytes(payload, "little")

    def noop(self) -> None:
        self._noop(self.store)

    def consume(self, data: bytes) -> int:
        ptr, length = self._lower(data)
        return int(self._consume(self.store, ptr, length)) & 0xFFFFFFFF

    def produce(self, length: int) -> bytes:
        return self._ok(self._produce(self.store, length))

    def trap(self) -> None:
        self._trap(self.store)

    def memory_pages(self) -> int:
        return int(self._memory_pages(self.store)) & 0xFFFFFFFF


class Generator(BaseGenerator):
    """The raw path on its own Store. Not thread-safe: one per thread (see
    qrglue.Generator)."""

    def _new_calls(self) -> Calls:
        return RawCalls()


# Module-level `qrglue.raw.png` / `svg`: one raw instance per thread.
_per_thread = PerThread(Generator)
png = _per_thread.png
svg = _per_thread.svg
