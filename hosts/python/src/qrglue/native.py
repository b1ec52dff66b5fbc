"""The native path: qrglue-core compiled for this machine and loaded into
Python as a CPython extension (PyO3), with no wasm in between.

Same API, defaults, errors and output as `qrglue` and `qrglue.raw`:

    import qrglue.native
    data = qrglue.native.png("https://example.com", ec_level="medium", min_size=300)

The extension (`qrglue._native`) is a separate distribution, so the
`qrglue` wheel stays pure Python + wasm: `pip install ./hosts/python/native`
(after `pip install ./hosts/python`), or `just build-python` in a source
checkout. Without it, `import qrglue.native` raises ImportError saying so.

How it differs from the wasm paths:
- The core runs with the GIL released: `png`, `svg`, `matrix`, `text` and `png_repeat` calls
  from several threads run in parallel. The functions are thread-safe and
  hold no per-thread state (`Generator` is only the same API as an object).
- No sandbox: the code runs in this process with its full rights. A Rust
  panic is caught and raised as `NativePanic` (a RuntimeError); the process
  and the next call are fine. There is no guest memory (no `memory_pages`)
  and nothing to trap (no `trap`); the `panic` probe plays that part.
- Texts are checked before any copy, like on the other paths: a `str` with
  a lone surrogate is `invalid-text` (never replaced), one of more than 7089
  code points is refused without being encoded.
- SVG options (`view_box_only`, `title`, `svg_class`) are read by the
  extension after every other option, with the other paths' messages; a
  title or class of any length is checked in Rust (no guest to protect).
- A binary payload (`bytes`, `bytearray`, a C-contiguous `memoryview` of
  bytes) goes to the extension's `*_bytes` functions (the core's `*_bytes`),
  its length checked before any copy: a `bytes` is read in place, the others
  are copied once.
"""

from __future__ import annotations

import importlib.util
from typing import cast

from ._common import (
    DEFAULT_DARK,
    DEFAULT_EC_LEVEL,
    DEFAULT_LIGHT,
    DEFAULT_MIN_SIZE,
    DEFAULT_QUIET_ZONE,
    DEFAULT_TEXT_STYLE,
    Payload,
    QrError,
    QrMatrix,
    check_count,
    exact_arguments,
    exact_options,
    exact_str,
)
from ._common import png_data_uri as _png_data_uri
from ._common import svg_data_uri as _svg_data_uri

try:
    from . import _native
except ImportError as e:
    if importlib.util.find_spec("qrglue._native") is not None:
        raise  # present but does not load: say why, not that it is missing
    raise ImportError(
        "qrglue.native needs the compiled extension qrglue._native, which is not installed: "
        "`pip install ./hosts/python/native` (from the qrglue repository, after `pip install ./hosts/python`), "
        "or `just build-python` in a source checkout",
        name=__name__,
    ) from e

__all__ = ["Generator", "NativePanic", "QrError", "QrMatrix", "consume", "matrix", "noop", "panic", "png",
           "png_data_uri", "png_repeat", "produce", "svg", "svg_data_uri", "text"]

NativePanic = _native.NativePanic


def png(text: Payload, *, ec_level: str = DEFAULT_EC_LEVEL, min_size: int = DEFAULT_MIN_SIZE,
        quiet_zone: int = DEFAULT_QUIET_ZONE, scale: int | None = None, dark: str = DEFAULT_DARK,
        light: str = DEFAULT_LIGHT, micro: bool = False, version: int | None = None,
        min_version: int | None = None, mask: int | None = None, boost_ec: bool = False, eci: bool = False) -> bytes:
    """The QR code for `text` (a str, or a binary payload: bytes, bytearray or memoryview) as PNG bytes
    (options as for `qrglue.Generator.png`). Raises QrError."""
    if isinstance(text, str):
        return _native.png(*exact_arguments(text, ec_level, min_size, quiet_zone, scale, dark, light, micro, version,
                                            min_version, mask, boost_ec, eci))
    return _native.png_bytes(text, *exact_options(ec_level, min_size, quiet_zone, scale, dark, light, micro, version,
                                                  min_version, mask, boost_ec, eci))


def svg(text: Payload, *, ec_level: str = DEFAULT_EC_LEVEL, min_size: int = DEFAULT_MIN_SIZE,
        quiet_zone: int = DEFAULT_QUIET_ZONE, scale: int | None = None, dark: str = DEFAULT_DARK,
        light: str = DEFAULT_LIGHT, micro: bool = False, version: int | None = None,
        min_version: int | None = None, mask: int | None = None, boost_ec: bool = False, eci: bool = False,
        view_box_only: bool = False, title: str | None = None, svg_class: str | None = None) -> str:
    """The QR code for `text` as an SVG document, written as the SVG options
    ask (see `qrglue.Generator.svg`). Raises QrError."""
    svg_options = (view_box_only, cast("str | None", exact_str(title)), cast("str | None", exact_str(svg_class)))
    if isinstance(text, str):
        return _native.svg(*exact_arguments(text, ec_level, min_size, quiet_zone, scale, dark, light, micro, version,
                                            min_version, mask, boost_ec, eci), *svg_options)
    return _native.svg_bytes(text, *exact_options(ec_level, min_size, quiet_zone, scale, dark, light, micro, version,
                                                  min_version, mask, boost_ec, eci), *svg_options)


def png_data_uri(text: Payload, *, ec_level: str = DEFAULT_EC_LEVEL, min_size: int = DEFAULT_MIN_SIZE,
                 quiet_zone: int = DEFAULT_QUIET_ZONE, scale: int | None = None, dark: str = DEFAULT_DARK,
                 light: str = DEFAULT_LIGHT, micro: bool = False, version: int | None = None,
                 min_version: int | None = None, mask: int | None = None, boost_ec: bool = False,
                 eci: bool = False) -> str:
    """`png` as a `data:image/png;base64,...` URI. Raises QrError."""
    return _png_data_uri(png(text, ec_level=ec_level, min_size=min_size, quiet_zone=quiet_zone, scale=scale, dark=dark,
                             light=light, micro=micro, version=version, min_version=min_version, mask=mask,
                             boost_ec=boost_ec, eci=eci))


def svg_data_uri(text: Payload, *, ec_level: str = DEFAULT_EC_LEVEL, min_size: int = DEFAULT_MIN_SIZE,
                 quiet_zone: int = DEFAULT_QUIET_ZONE, scale: int | None = None, dark: str = DEFAULT_DARK,
                 light: str = DEFAULT_LIGHT, micro: bool = False, version: int | None = None,
                 min_version: int | None = None, mask: int | None = None, boost_ec: bool = False, eci: bool = False,
                 view_box_only: bool = False, title: str | None = None, svg_class: str | None = None) -> str:
    """`svg` as a `data:image/svg+xml;base64,...` URI. Raises QrError."""
    return _svg_data_uri(svg(text, ec_level=ec_level, min_size=min_size, quiet_zone=quiet_zone, scale=scale, dark=dark,
                             light=light, micro=micro, version=version, min_version=min_version, mask=mask,
                             boost_ec=boost_ec, eci=eci, view_box_only=view_box_only, title=title, svg_class=svg_class))


def matrix(text: Payload, *, ec_level: str = DEFAULT_EC_LEVEL, min_size: int = DEFAULT_MIN_SIZE,
           quiet_zone: int = DEFAULT_QUIET_ZONE, scale: int | None = None, dark: str = DEFAULT_DARK,
           light: str = DEFAULT_LIGHT, micro: bool = False, version: int | None = None,
           min_version: int | None = None, mask: int | None = None, boost_ec: bool = False,
           eci: bool = False) -> QrMatrix:
    """The module matrix for `text`, quiet zone not included (see
    `qrglue.Generator.matrix`). Raises QrError."""
    if isinstance(text, str):
        width, modules = _native.matrix(*exact_arguments(text, ec_level, min_size, quiet_zone, scale, dark, light,
                                                         micro, version, min_version, mask, boost_ec, eci))
    else:
        width, modules = _native.matrix_bytes(text, *exact_options(ec_level, min_size, quiet_zone, scale, dark, light,
                                                                   micro, version, min_version, mask, boost_ec, eci))
    return QrMatrix(width, modules)


def text(text: Payload, *, style: str = DEFAULT_TEXT_STYLE, ec_level: str = DEFAULT_EC_LEVEL,
         min_size: int = DEFAULT_MIN_SIZE, quiet_zone: int = DEFAULT_QUIET_ZONE, scale: int | None = None,
         dark: str = DEFAULT_DARK, light: str = DEFAULT_LIGHT, micro: bool = False, version: int | None = None,
         min_version: int | None = None, mask: int | None = None, boost_ec: bool = False, eci: bool = False) -> str:
    """The QR code for `text` as lines of text in `style` (see
    `qrglue.Generator.text`). Raises QrError."""
    options = exact_options(ec_level, min_size, quiet_zone, scale, dark, light, micro, version, min_version, mask,
                            boost_ec, eci)
    style = cast(str, exact_str(style))
    if isinstance(text, str):
        return _native.text(str.__str__(text), style, *options)
    return _native.text_bytes(text, style, *options)


# Probes: for measuring the bridge, not for users (see wit/qr.wit `probe`).

def png_repeat(text: str, times: int, *, ec_level: str = DEFAULT_EC_LEVEL, min_size: int = DEFAULT_MIN_SIZE,
               quiet_zone: int = DEFAULT_QUIET_ZONE, scale: int | None = None, dark: str = DEFAULT_DARK,
               light: str = DEFAULT_LIGHT, micro: bool = False, version: int | None = None,
               min_version: int | None = None, mask: int | None = None, boost_ec: bool = False,
               eci: bool = False) -> int:
    """Render the PNG `times` times in Rust, GIL released; the last PNG's length."""
    text, ec_level, min_size, quiet_zone, scale, dark, light, micro, version, min_version, mask, boost_ec, eci = (
        exact_arguments(text, ec_level, min_size, quiet_zone, scale, dark, light, micro, version, min_version, mask,
                        boost_ec, eci))
    return _native.png_repeat(text, check_count(times), ec_level, min_size, quiet_zone, scale, dark, light, micro,
                              version, min_version, mask, boost_ec, eci)


def noop() -> None:
    """Does nothing: the fixed cost of one call."""
    _native.noop()


def consume(data: bytes) -> int:
    """`len(data)`, read by Rust (a `bytes` in place, anything else through `bytes(data)`)."""
    return _native.consume(data)


def produce(length: int) -> bytes:
    """`length` bytes, byte i = i % 251; over 16 MiB is `invalid-options`, as on the raw path."""
    return _native.produce(check_count(length))


def panic() -> None:
    """Make Rust panic, always: raises NativePanic; the next call works."""
    _native.panic()


class Generator:
    """The native path with the shape of `qrglue.Generator` / `qrglue.raw.Generator`.

    Stateless (there is no Store or instance): every Generator, and the
    module functions, call the same extension, and all are thread-safe.
    """

    png = staticmethod(png)
    svg = staticmethod(svg)
    png_data_uri = staticmethod(png_data_uri)
    svg_data_uri = staticmethod(svg_data_uri)
    matrix = staticmethod(matrix)
    text = staticmethod(text)
    png_repeat = staticmethod(png_repeat)
    noop = staticmethod(noop)
    consume = staticmethod(consume)
    produce = staticmethod(produce)
    panic = staticmethod(panic)
