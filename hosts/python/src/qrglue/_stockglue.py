"""The component path's stock glue: wasmtime-py's own conversions
(`component.Func.__call__`), unchanged. The default is the fast glue
(`_fastglue.py`); this one runs on any other wasmtime-py version.

How values come back, read from wasmtime-py 50.0.1 (component/_types.py):
- `result<T, qr-error>` is *untagged* because the ok and error cases have
  distinct Python classes: the call returns the ok value itself (bytes, str,
  int) or the error payload, and raises nothing.
- `qr-error` itself is *tagged* (its three string cases would be
  indistinguishable, and `empty-text` has no payload): it arrives as
  `wasmtime.component.Variant(tag, payload)`, which is how we recover the
  kind, including `empty-text`, which carries no message.
- records are `wasmtime.component.Record` objects with one attribute per
  field; WIT field names have hyphens, so they are set with setattr. A
  `qr-matrix` is a Record too (its class differs from the error's Variant,
  so its `result` is untagged like the others).
- an `enum` (`ec-level`, `text-style`) is lowered from its case name, a str.
- an `option<u32>` (`scale`, `version`, ...) is untagged too: None or the
  int; so is `option<symbol-options>`: None or a Record.
- a `bool` (`micro`, `view-box-only`, ...) is a Python bool.
- an `option<string>` (`title`, `class`) is untagged: None or the str.
"""

from __future__ import annotations

from typing import Any, NoReturn

from wasmtime import component as wc

from ._common import EC_LEVELS, TEXT_STYLES, Data, Options, QrError, QrMatrix, SvgOptions, Symbol
from ._instance import GENERATOR_INTERFACE, PROBE_INTERFACE, export_func, instantiate
from ._options import symbol_fields


def raise_qr_error(error: Any) -> NoReturn:
    """Turn a lifted `qr-error` (a tagged Variant) into QrError."""
    if isinstance(error, wc.Variant):
        raise QrError(error.tag, error.payload)
    raise TypeError(f"unexpected value from the guest: {error!r}")


def _rgba(color: int) -> wc.Record:
    """A colour as 0xRRGGBBAA as WIT's `rgba` record."""
    record = wc.Record()
    for channel, value in zip("rgba", color.to_bytes(4, "big"), strict=True):
        setattr(record, channel, value)
    return record


def _symbol(symbol: Symbol | None) -> wc.Record | None:
    """The symbol options as WIT's `option<symbol-options>`: None when every
    one is at its default."""
    if symbol is None:
        return None
    record = wc.Record()
    for name, value in symbol_fields(symbol).items():
        setattr(record, name, value)
    return record


def _svg_options(svg: SvgOptions | None) -> wc.Record:
    """The SVG options as WIT's `svg-options` record (every field at its
    default when `svg` is None)."""
    record = wc.Record()
    if svg is None:
        svg = SvgOptions()
    fields = {"view-box-only": svg.view_box_only, "title": svg.title, "class": svg.svg_class}
    for name, value in fields.items():
        setattr(record, name, value)
    return record


def _png_out(out: Any) -> bytes:
    """A `result<list<u8>, qr-error>` as lifted: the bytes, or QrError raised."""
    if isinstance(out, bytes):
        return out
    raise_qr_error(out)


def _str_out(out: Any) -> str:
    """A `result<string, qr-error>` as lifted: the str, or QrError raised."""
    if isinstance(out, str):
        return out
    raise_qr_error(out)


def _matrix_out(out: Any) -> QrMatrix:
    """A `result<qr-matrix, qr-error>` as lifted: the matrix, or QrError raised."""
    if isinstance(out, wc.Record):
        fields = vars(out)  # the record's fields are its attributes, set by name
        return QrMatrix(int(fields["width"]), bytes(fields["modules"]))
    raise_qr_error(out)


class StockCalls:
    """Calls through wasmtime-py's stock conversion, unchanged."""

    def __init__(self) -> None:
        self.store, instance = instantiate()
        gen = GENERATOR_INTERFACE
        self._png = export_func(self.store, instance, gen, "png")
        self._svg = export_func(self.store, instance, gen, "svg")
        self._matrix = export_func(self.store, instance, gen, "matrix")
        self._text = export_func(self.store, instance, gen, "text")
        self._png_bytes = export_func(self.store, instance, gen, "png-bytes")
        self._svg_bytes = export_func(self.store, instance, gen, "svg-bytes")
        self._matrix_bytes = export_func(self.store, instance, gen, "matrix-bytes")
        self._text_bytes = export_func(self.store, instance, gen, "text-bytes")
        self._noop = export_func(self.store, instance, PROBE_INTERFACE, "noop")
        self._consume = export_func(self.store, instance, PROBE_INTERFACE, "consume")
        self._produce = export_func(self.store, instance, PROBE_INTERFACE, "produce")
        self._png_repeat = export_func(self.store, instance, PROBE_INTERFACE, "png-repeat")
        self._trap = export_func(self.store, instance, PROBE_INTERFACE, "trap")
        self._memory_pages = export_func(self.store, instance, PROBE_INTERFACE, "memory-pages")

    @staticmethod
    def _options(checked: Options) -> wc.Record:
        options = wc.Record()
        # WIT field names (hyphens included) as attributes: set by name.
        fields = {"ec-level": EC_LEVELS[checked.ec], "min-size": checked.min_size, "quiet-zone": checked.quiet_zone,
                  "scale": checked.scale, "dark": _rgba(checked.dark), "light": _rgba(checked.light),
                  "symbol": _symbol(checked.symbol)}
        for name, value in fields.items():
            setattr(options, name, value)
        return options

    def png(self, text: str, data: bytes, options: Options) -> bytes:
        return _png_out(self._png(self.store, text, self._options(options)))

    def svg(self, text: str, data: bytes, options: Options, svg: SvgOptions | None = None) -> str:
        return _str_out(self._svg(self.store, text, self._options(options), _svg_options(svg)))

    def matrix(self, text: str, data: bytes, options: Options) -> QrMatrix:
        return _matrix_out(self._matrix(self.store, text, self._options(options)))

    def text(self, text: str, data: bytes, options: Options, style: int) -> str:
        return _str_out(self._text(self.store, text, self._options(options), TEXT_STYLES[style]))

    # A payload goes in as `bytes`, the only type stock lowers to list<u8>
    # (a view is copied into one first).

    def png_bytes(self, data: Data, options: Options) -> bytes:
        return _png_out(self._png_bytes(self.store, bytes(data), self._options(options)))

    def svg_bytes(self, data: Data, options: Options, svg: SvgOptions | None = None) -> str:
        return _str_out(self._svg_bytes(self.store, bytes(data), self._options(options), _svg_options(svg)))

    def matrix_bytes(self, data: Data, options: Options) -> QrMatrix:
        return _matrix_out(self._matrix_bytes(self.store, bytes(data), self._options(options)))

    def text_bytes(self, data: Data, options: Options, style: int) -> str:
        return _str_out(self._text_bytes(self.store, bytes(data), self._options(options), TEXT_STYLES[style]))

    def png_repeat(self, text: str, data: bytes, options: Options, times: int) -> int:
        out = self._png_repeat(self.store, text, self._options(options), times)
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
