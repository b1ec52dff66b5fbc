"""The raw path: qrglue.raw.wasm through hand-written glue (guest/raw/ABI.md).

Same API as `qrglue`: `png`, `svg`, `png_data_uri`, `svg_data_uri`, `matrix`, `text`, `Generator`,
`QrError`; a binary payload goes to the `qr_*_bytes` exports. Three guest calls
per render (`qr_alloc`, the export, `qr_free`); bytes move with
ctypes.memmove into / ctypes.string_at out of linear memory, whose address is
re-read after every call that may grow it; the 12-byte result record is read
in one piece, and every payload is copied out before it is freed.

The core functions are called through `_rawcore.FastCore` (the C API without
wasmtime-py's per-call type reads) on the wasmtime-py version it was written
for, else through wasmtime-py's own calls (`StockCore`) with one warning.
"""

from __future__ import annotations

import ctypes
import struct

import wasmtime

from . import _loader, _rawcore
from ._common import (
    DEFAULT_OPTIONS,
    RAW_RECORD_BYTES,
    RAW_STATUS_KINDS,
    RAW_STATUS_OK,
    RAW_SVG_FLAGS,
    Data,
    GeneratorInUse,
    GuestTrap,
    Options,
    QrError,
    QrMatrix,
    SvgOptions,
    Symbol,
)
from ._common import RAW_ABI_VERSION as ABI_VERSION
from ._generator import BaseGenerator, Calls, PerThread
from ._options import symbol_flags

__all__ = ["Generator", "GeneratorInUse", "GuestTrap", "QrError", "QrMatrix", "matrix", "png", "png_data_uri", "svg",
           "svg_data_uri", "text"]

GLUES = ("auto", "fast", "stock")

# {status, payload_ptr, payload_len}, little-endian u32s.
_RECORD = struct.Struct("<III")
assert _RECORD.size == RAW_RECORD_BYTES
# qr_matrix's payload starts with the width, a little-endian u32; the packed modules follow.
_MATRIX_WIDTH = struct.Struct("<I")


# symbol_flags, version, min_version, mask when every symbol option is at its default.
_NO_SYMBOL = (0, 0, 0, 0)


def _abi_symbol(symbol: Symbol) -> tuple[int, int, int, int]:
    """The symbol options as ABI 7 passes them: symbol_flags, then version,
    min_version and mask (0 when absent: the flag says which are given)."""
    return symbol_flags(symbol), symbol.version or 0, symbol.min_version or 0, symbol.mask or 0


def _lower_options(options: Options) -> tuple[int, ...]:
    """The options as ABI 7 passes them, after the text: ec_level, min_size,
    quiet_zone, has_scale, scale, dark, light (colours as 0xRRGGBBAA),
    symbol_flags, version, min_version, mask."""
    scale, symbol = options.scale, options.symbol
    return (options.ec, options.min_size, options.quiet_zone, int(scale is not None), scale or 0, options.dark,
            options.light, *(_NO_SYMBOL if symbol is None else _abi_symbol(symbol)))


_DEFAULT_ABI_OPTIONS = _lower_options(DEFAULT_OPTIONS)


def _abi_options(options: Options) -> tuple[int, ...]:
    """_lower_options, lowered once for DEFAULT_OPTIONS (every call that names no option)."""
    return _DEFAULT_ABI_OPTIONS if options is DEFAULT_OPTIONS else _lower_options(options)


_VIEW_BOX_ONLY, _HAS_TITLE, _HAS_CLASS = (RAW_SVG_FLAGS[name] for name in ("view-box-only", "has-title", "has-class"))


def _abi_svg(svg: SvgOptions | None) -> tuple[int, bytes, bytes]:
    """The SVG options as ABI 6 passes them: svg_flags, and the title's and
    the class's UTF-8, which travel in one buffer (title first, `title_len`
    bytes of it)."""
    if svg is None:
        return 0, b"", b""
    title, svg_class = svg.title, svg.svg_class
    flags = ((_VIEW_BOX_ONLY if svg.view_box_only else 0) | (0 if title is None else _HAS_TITLE)
             | (0 if svg_class is None else _HAS_CLASS))
    return flags, (title or "").encode("utf-8"), (svg_class or "").encode("utf-8")


def _matrix(payload: bytes) -> QrMatrix:
    """qr_matrix's payload: the width, then the packed modules."""
    if len(payload) < _MATRIX_WIDTH.size:
        raise RuntimeError(f"qr_matrix returned {len(payload)} bytes, less than its width")
    (width,) = _MATRIX_WIDTH.unpack_from(payload)
    return QrMatrix(width, payload[_MATRIX_WIDTH.size:])  # QrMatrix checks the length


class RawCalls:
    """One raw instance in its own Store, called through a `_rawcore` Core."""

    def __init__(self, fast: bool) -> None:
        self.store = store = wasmtime.Store(_loader.engine())
        module = _loader.raw_module()
        instance = wasmtime.Instance(store, module, [])
        self._bind(_rawcore.FastCore(store, instance, module) if fast else _rawcore.StockCore(store, instance))

    def _bind(self, core: _rawcore.Core) -> None:
        """The glue over `core`: any engine that gives the exports as calls
        and the memory as (address, size) (qrglue.wasm3 binds wasm3's)."""
        self._core = core  # keeps the Store and exports the bound calls use alive
        self._memory = core.memory
        self._alloc = core.func("qr_alloc")
        self._free = core.func("qr_free")
        self._png = core.func("qr_png")
        self._svg = core.func("qr_svg")
        self._matrix = core.func("qr_matrix")
        self._text = core.func("qr_text")
        self._png_bytes = core.func("qr_png_bytes")
        self._svg_bytes = core.func("qr_svg_bytes")
        self._matrix_bytes = core.func("qr_matrix_bytes")
        self._text_bytes = core.func("qr_text_bytes")
        self._png_repeat = core.func("qr_png_repeat")
        self._noop = core.func("qr_noop")
        self._consume = core.func("qr_consume")
        self._produce = core.func("qr_produce")
        self._trap = core.func("qr_trap")
        self._memory_pages = core.func("qr_memory_pages")
        version = core.func("qr_abi_version")()
        if version != ABI_VERSION:
            raise RuntimeError(f"qrglue.raw.wasm speaks ABI {version}, this glue speaks {ABI_VERSION}")

    def _base(self, end: int) -> int:
        """Address of linear memory, after checking [0, end) lies inside it."""
        base, size = self._memory()
        if end > size:
            raise RuntimeError("the guest returned a pointer outside its memory")
        return base

    def _lower(self, data: Data) -> tuple[int, int]:
        """Copy data into a fresh guest buffer; the next guest call owns it.
        Exact bytes are copied with memmove; a view (a payload's bytearray or
        memoryview) through a memoryview of the guest's buffer, with the GIL
        held all along (ctypes lets it go during memmove, when another thread
        could resize a bytearray under the copy)."""
        n = len(data)
        if not n:
            return 0, 0
        ptr = self._alloc(n)
        if ptr == 0:
            raise MemoryError(f"qr_alloc({n}) failed in the guest")
        address = self._base(ptr + n) + ptr
        if type(data) is bytes:
            ctypes.memmove(address, data, n)
        else:
            memoryview((ctypes.c_char * n).from_address(address)).cast("B")[:] = data
        return ptr, n

    def _ok(self, record: int) -> bytes:
        """Read a result record, copy its payload out, free it; the payload or QrError."""
        base, size = self._memory()
        if record + RAW_RECORD_BYTES > size:
            raise RuntimeError("the guest returned a record outside its memory")
        status, payload_ptr, payload_len = _RECORD.unpack(ctypes.string_at(base + record, RAW_RECORD_BYTES))
        if payload_ptr + payload_len > size:
            raise RuntimeError("the guest returned a payload outside its memory")
        payload = ctypes.string_at(base + payload_ptr, payload_len) if payload_len else b""
        self._free(record)
        if status == RAW_STATUS_OK:
            return payload
        kind = RAW_STATUS_KINDS.get(status)
        if kind is None:
            raise RuntimeError(f"unknown status {status} from the guest")
        raise QrError(kind, payload.decode("utf-8") or None)

    def png(self, text: str, data: bytes, options: Options) -> bytes:
        ptr, length = self._lower(data)
        return self._ok(self._png(ptr, length, *_abi_options(options)))

    def _svg_call(self, export: _rawcore.CoreFunc, data: Data, options: Options, svg: SvgOptions | None = None) -> str:
        """qr_svg or qr_svg_bytes: the strings' buffer, then the text's,
        both the guest's from the call on; then the four SVG arguments
        (svg_flags, title_len, strings_ptr, strings_len) after the options."""
        flags, title, svg_class = _abi_svg(svg)
        strings_ptr, strings_len = self._lower(title + svg_class) if title or svg_class else (0, 0)
        ptr, length = self._lower(data)
        record = export(ptr, length, *_abi_options(options), flags, len(title), strings_ptr, strings_len)
        return self._ok(record).decode("utf-8")

    def svg(self, text: str, data: bytes, options: Options, svg: SvgOptions | None = None) -> str:
        return self._svg_call(self._svg, data, options, svg)

    def matrix(self, text: str, data: bytes, options: Options) -> QrMatrix:
        ptr, length = self._lower(data)
        return _matrix(self._ok(self._matrix(ptr, length, *_abi_options(options))))

    def text(self, text: str, data: bytes, options: Options, style: int) -> str:
        ptr, length = self._lower(data)
        return self._ok(self._text(ptr, length, *_abi_options(options), style)).decode("utf-8")

    # A binary payload: the same calls to the `_bytes` exports (no UTF-8 check in the guest).

    def png_bytes(self, data: Data, options: Options) -> bytes:
        ptr, length = self._lower(data)
        return self._ok(self._png_bytes(ptr, length, *_abi_options(options)))

    def svg_bytes(self, data: Data, options: Options, svg: SvgOptions | None = None) -> str:
        return self._svg_call(self._svg_bytes, data, options, svg)

    def matrix_bytes(self, data: Data, options: Options) -> QrMatrix:
        ptr, length = self._lower(data)
        return _matrix(self._ok(self._matrix_bytes(ptr, length, *_abi_options(options))))

    def text_bytes(self, data: Data, options: Options, style: int) -> str:
        ptr, length = self._lower(data)
        return self._ok(self._text_bytes(ptr, length, *_abi_options(options), style)).decode("utf-8")

    def png_repeat(self, text: str, data: bytes, options: Options, times: int) -> int:
        ptr, length = self._lower(data)
        payload = self._ok(self._png_repeat(ptr, length, *_abi_options(options), times))
        return int.from_bytes(payload, "little")

    def noop(self) -> None:
        self._noop()

    def consume(self, data: bytes) -> int:
        ptr, length = self._lower(data)
        return self._consume(ptr, length)

    def produce(self, length: int) -> bytes:
        return self._ok(self._produce(length))

    def trap(self) -> None:
        self._trap()

    def memory_pages(self) -> int:
        return self._memory_pages()


class Generator(BaseGenerator):
    """The raw path on its own Store. One call at a time: one per thread
    (see qrglue.Generator; a second thread inside it gets GeneratorInUse).

    `glue`: "auto" (default) calls the core functions through the C API
    (`_rawcore.FastCore`) when the installed wasmtime-py is the version it
    was written for, else through wasmtime-py's own calls with one warning;
    "fast" insists (RuntimeError otherwise); "stock" always uses
    wasmtime-py's calls.
    """

    def __init__(self, *, glue: str = "auto") -> None:
        if glue not in GLUES:
            raise ValueError(f"glue must be auto, fast or stock, not {glue!r}")
        if glue == "fast" and not _rawcore.available():
            raise RuntimeError("the fast raw glue is not available for this wasmtime-py")
        self.fast = glue != "stock" and _rawcore.available()
        """Whether the calls go through the C API (`_rawcore.FastCore`) rather than wasmtime-py's."""
        super().__init__()

    def _new_calls(self) -> Calls:
        return RawCalls(self.fast)


# Module-level `qrglue.raw.png` / `svg` / `matrix` / `text`: one raw instance per thread.
_per_thread = PerThread(Generator)
png = _per_thread.png
svg = _per_thread.svg
png_data_uri = _per_thread.png_data_uri
svg_data_uri = _per_thread.svg_data_uri
matrix = _per_thread.matrix
text = _per_thread.text
