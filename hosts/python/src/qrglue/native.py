"""The native path: qrglue-core compiled for this machine and loaded into
Python as a CPython extension (PyO3), with no wasm in between.

Same API, defaults, errors and output as `qrglue` and `qrglue.raw`:

    import qrglue.native
    data = qrglue.native.png("https://example.com", ec_level="medium", min_size=300)

The extension (`qrglue._native`) is a separate distribution, so the
`qrglue` wheel stays pure Python + wasm: `pip install qrglue-native` (the
platform wheel), `pip install ./hosts/python/native` from the repository, or
`just build-python` in a source checkout. Without it, `import qrglue.native` raises ImportError saying so.

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
from collections.abc import Mapping
from typing import TYPE_CHECKING, cast

from ._common import (
    DEFAULT_TEXT_STYLE,
    KEYWORDS,
    SVG_KEYWORDS,
    TEXT_KEYWORDS,
    OptionKeywords,
    Payload,
    QrError,
    QrMatrix,
    SvgKeywords,
    TextKeywords,
    check_count,
    check_keywords,
    exact_arguments,
    exact_options,
    exact_str,
    option_values,
    svg_values,
)
from ._options import OptionValues

if TYPE_CHECKING:
    from typing_extensions import Unpack
from ._common import png_data_uri as _png_data_uri
from ._common import svg_data_uri as _svg_data_uri

try:
    from . import _native
except ImportError as e:
    if importlib.util.find_spec("qrglue._native") is not None:
        raise  # present but does not load: say why, not that it is missing
    raise ImportError(
        "qrglue.native needs the compiled extension qrglue._native, which is not installed: "
        "`pip install qrglue-native` (the platform wheel), `pip install ./hosts/python/native` "
        "from the qrglue repository, or `just build-python` in a source checkout",
        name=__name__,
    ) from e

__all__ = ["Generator", "NativePanic", "QrError", "QrMatrix", "consume", "matrix", "noop", "panic", "png",
           "png_data_uri", "png_repeat", "produce", "svg", "svg_data_uri", "text"]

NativePanic = _native.NativePanic


def _values(text: object, function: str, options: Mapping[str, object],
            known: tuple[str, ...] = KEYWORDS) -> OptionValues:
    """The options' values for the extension (`option_values`); an unknown
    keyword is refused first, after the text's own checks, as on the wasm
    paths (`check_keywords`)."""
    if options and not all(name in known for name in options):
        check_keywords(text, function, options, known)  # raises: the text's error, or the unknown option's
    return option_values(options)


def png(text: Payload, **options: Unpack[OptionKeywords]) -> bytes:
    """The QR code for `text` (a str, or a binary payload: bytes, bytearray or memoryview) as PNG bytes
    (options as for `qrglue.Generator.png`). Raises QrError."""
    values = _values(text, "png", options)
    if isinstance(text, str):
        return _native.png(*exact_arguments(text, *values))
    return _native.png_bytes(text, *exact_options(*values))


def svg(text: Payload, **options: Unpack[SvgKeywords]) -> str:
    """The QR code for `text` as an SVG document, written as the SVG options
    ask (see `qrglue.Generator.svg`). Raises QrError."""
    values = _values(text, "svg", options, SVG_KEYWORDS)
    view_box_only, title, svg_class = svg_values(options)
    svg_options = (cast(bool, view_box_only), cast("str | None", exact_str(title)),
                   cast("str | None", exact_str(svg_class)))
    if isinstance(text, str):
        return _native.svg(*exact_arguments(text, *values), *svg_options)
    return _native.svg_bytes(text, *exact_options(*values), *svg_options)


def png_data_uri(text: Payload, **options: Unpack[OptionKeywords]) -> str:
    """`png` as a `data:image/png;base64,...` URI. Raises QrError."""
    return _png_data_uri(png(text, **options))


def svg_data_uri(text: Payload, **options: Unpack[SvgKeywords]) -> str:
    """`svg` as a `data:image/svg+xml;base64,...` URI. Raises QrError."""
    return _svg_data_uri(svg(text, **options))


def matrix(text: Payload, **options: Unpack[OptionKeywords]) -> QrMatrix:
    """The module matrix for `text`, quiet zone not included (see
    `qrglue.Generator.matrix`). Raises QrError."""
    values = _values(text, "matrix", options)
    if isinstance(text, str):
        width, modules = _native.matrix(*exact_arguments(text, *values))
    else:
        width, modules = _native.matrix_bytes(text, *exact_options(*values))
    return QrMatrix(width, modules)


def text(text: Payload, **options: Unpack[TextKeywords]) -> str:
    """The QR code for `text` as lines of text in `style` (see
    `qrglue.Generator.text`). Raises QrError."""
    values = exact_options(*_values(text, "text", options, TEXT_KEYWORDS))
    style = cast(str, exact_str(options.get("style", DEFAULT_TEXT_STYLE)))
    if isinstance(text, str):
        return _native.text(str.__str__(text), style, *values)
    return _native.text_bytes(text, style, *values)


# Probes: for measuring the bridge, not for users (see wit/qr.wit `probe`).

def png_repeat(text: str, times: int, **options: Unpack[OptionKeywords]) -> int:
    """Render the PNG `times` times in Rust, GIL released; the last PNG's length."""
    arguments = exact_arguments(text, *_values(text, "png_repeat", options))
    return _native.png_repeat(arguments[0], check_count(times), *arguments[1:])


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
