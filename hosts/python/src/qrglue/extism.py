"""The Extism path: guest/extism (qrglue.extism.wasm) through Extism's Python
SDK (`extism`, over the bundled libextism of `extism-sys`, which runs the
plug-in on its own Wasmtime).

Same API as `qrglue.raw`: `png`, `svg`, `png_data_uri`, `svg_data_uri`,
`matrix`, `text`, `Generator`, `QrError`. Each call is one plug-in call: the
input is the raw ABI's option words (raw.py's `_abi_options`, the lowering
the raw glue passes as arguments), little-endian, then the payload; the
output is the raw ABI's payload. A contract error is Extism's error string
`"<kind>: <message>"` (guest/extism/README.md), raised as the same QrError
as on every other path; any other failure retires the instance.

`extism` is an optional dependency (requirements-dev.txt pins it): import
this module only where it is installed.
"""

from __future__ import annotations

import struct
import threading
from pathlib import Path

import extism as _extism

# extism 1.1.1 defines CompiledPlugin but does not re-export it from the package.
from extism.extism import CompiledPlugin

from ._common import RAW_STATUS_KINDS, Data, GeneratorInUse, GuestTrap, Options, QrError, QrMatrix, SvgOptions
from ._generator import BaseGenerator, Calls, PerThread
from .raw import _abi_options, _abi_svg, _matrix

__all__ = ["Generator", "GeneratorInUse", "GuestTrap", "QrError", "QrMatrix", "matrix", "png", "png_data_uri", "svg",
           "svg_data_uri", "text"]

PLUGIN_FILE = "qrglue.extism.wasm"
_KINDS = frozenset(RAW_STATUS_KINDS.values())
_U32 = struct.Struct("<I")

_compiled: CompiledPlugin | None = None
_compile_lock = threading.Lock()


def plugin_path() -> Path:
    """The plug-in: next to this file in an install (`just build-python` copies it)."""
    return Path(__file__).with_name(PLUGIN_FILE)


def compiled_plugin() -> CompiledPlugin:
    """The process's CompiledPlugin (Extism's kernel and the module, compiled
    once): every Generator instantiates from it."""
    global _compiled
    with _compile_lock:
        if _compiled is None:
            _compiled = CompiledPlugin(plugin_path().read_bytes(), wasi=False, functions=[])
        return _compiled


def _words(words: tuple[int, ...]) -> bytes:
    return struct.pack(f"<{len(words)}I", *words)


class ExtismCalls:
    """One plug-in instance."""

    def __init__(self) -> None:
        self._plugin = _extism.Plugin(compiled_plugin(), functions=[])

    def _call(self, name: str, data: bytes) -> bytes:
        try:
            out: bytes = self._plugin.call(name, data)
            return out
        except _extism.Error as e:
            kind, sep, message = str(e).partition(": ")
            if sep and kind in _KINDS:
                raise QrError(kind, message or None) from None
            raise

    def _generate(self, name: str, data: Data, options: Options, *extra: int, strings: bytes = b"") -> bytes:
        # bytes(data): a payload may be a memoryview or bytearray; the SDK takes bytes.
        return self._call(name, _words((*_abi_options(options), *extra)) + strings + bytes(data))

    def _svg(self, name: str, data: Data, options: Options, svg: SvgOptions | None) -> str:
        flags, title, svg_class = _abi_svg(svg)
        strings = title + svg_class
        return self._generate(name, data, options, flags, len(title), len(strings), strings=strings).decode("utf-8")

    def png(self, text: str, data: bytes, options: Options) -> bytes:
        return self._generate("qr_png", data, options)

    def svg(self, text: str, data: bytes, options: Options, svg: SvgOptions | None = None) -> str:
        return self._svg("qr_svg", data, options, svg)

    def matrix(self, text: str, data: bytes, options: Options) -> QrMatrix:
        return _matrix(self._generate("qr_matrix", data, options))

    def text(self, text: str, data: bytes, options: Options, style: int) -> str:
        return self._generate("qr_text", data, options, style).decode("utf-8")

    def png_bytes(self, data: Data, options: Options) -> bytes:
        return self._generate("qr_png_bytes", data, options)

    def svg_bytes(self, data: Data, options: Options, svg: SvgOptions | None = None) -> str:
        return self._svg("qr_svg_bytes", data, options, svg)

    def matrix_bytes(self, data: Data, options: Options) -> QrMatrix:
        return _matrix(self._generate("qr_matrix_bytes", data, options))

    def text_bytes(self, data: Data, options: Options, style: int) -> str:
        return self._generate("qr_text_bytes", data, options, style).decode("utf-8")

    def png_repeat(self, text: str, data: bytes, options: Options, times: int) -> int:
        return int.from_bytes(self._generate("qr_png_repeat", data, options, times), "little")

    def noop(self) -> None:
        self._call("qr_noop", b"")

    def consume(self, data: bytes) -> int:
        (n,) = _U32.unpack(self._call("qr_consume", data))
        return int(n)

    def produce(self, length: int) -> bytes:
        return self._call("qr_produce", _U32.pack(length))

    def trap(self) -> None:
        raise NotImplementedError("the Extism plug-in has no trap probe (Extism owns the instance)")

    def memory_pages(self) -> int:
        raise NotImplementedError("the Extism plug-in has no memory probe (Extism owns its memory)")


class Generator(BaseGenerator):
    """The Extism path on one plug-in instance. One call at a time, as
    qrglue.Generator (a second thread inside it gets GeneratorInUse)."""

    def __init__(self) -> None:
        super().__init__()
        # A failure of the plug-in call itself (a trap in libextism's
        # Wasmtime) retires the instance, as a trap does on the other paths.
        self._trap_types = (_extism.Error,)

    def _new_calls(self) -> Calls:
        return ExtismCalls()


_per_thread = PerThread(Generator)
png = _per_thread.png
svg = _per_thread.svg
png_data_uri = _per_thread.png_data_uri
svg_data_uri = _per_thread.svg_data_uri
matrix = _per_thread.matrix
text = _per_thread.text
