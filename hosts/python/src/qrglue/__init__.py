"""qrglue: QR codes from one Rust generator compiled to wasm.

`qrglue.png` / `qrglue.svg` go through the WebAssembly component
(qrglue.component.wasm) with wasmtime-py's component API; `qrglue.raw` offers
the same API over the hand-written raw ABI. Both give byte-identical output.

    import qrglue
    data = qrglue.png("https://example.com", ec_level="medium", min_size=300)
    data = qrglue.png("https://example.com", scale=4, dark="#336699", light="#fff0")
    data = qrglue.png("12345", micro=True)  # a Micro QR code (M1..M4)
    data = qrglue.png("https://example.com", version=5, mask=3)  # a fixed version and mask
    uri = qrglue.svg_data_uri("https://example.com")  # data:image/svg+xml;base64,...
    print(qrglue.text("https://example.com", style="half-blocks-inverted"), end="")
    matrix = qrglue.matrix("https://example.com")  # QrMatrix(width, modules)
    matrix.is_dark(0, 0)  # True: a finder pattern's corner
    data = qrglue.png(b"\xff\xfe\x00")  # a binary payload: bytes, bytearray or memoryview
    svg = qrglue.svg("https://example.com", view_box_only=True, title="Our site", svg_class="qr")

Every function takes a text (`str`) or a binary payload (bytes-like: the
guest's `*-bytes` generators, never decoded; a text's UTF-8 gives the text's
code); anything else is a TypeError.

Errors raise `qrglue.QrError` (a ValueError) whose `.kind` is one of
empty-text, invalid-text, data-too-long, invalid-options, and whose message
(`str(error)`) is the same on every path.

The component path (`Generator`, wasmtime's component API) is imported on
first use, so `import qrglue.raw` never pays for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import _options
from ._common import (
    EC_LEVELS,
    ERROR_KINDS,
    KEYWORDS,
    SVG_KEYWORDS,
    TEXT_KEYWORDS,
    TEXT_STYLES,
    EcLevel,
    ErrorKind,
    GeneratorInUse,
    GuestTrap,
    OptionKeywords,
    QrError,
    QrMatrix,
    SvgKeywords,
    TextKeywords,
    TextStyle,
)
from ._generator import BaseGenerator, PerThread

# Every option's default (DEFAULT_EC_LEVEL, ...), from the generated option layer: its
# `__all__` lists them, so a new option's default is public without a line here.
from ._options import *  # noqa: F403

if TYPE_CHECKING:
    from ._component import Generator

__all__ = [
    "EC_LEVELS",
    "ERROR_KINDS",
    "KEYWORDS",
    "SVG_KEYWORDS",
    "TEXT_KEYWORDS",
    "TEXT_STYLES",
    "EcLevel",
    "ErrorKind",
    "Generator",
    "GeneratorInUse",
    "GuestTrap",
    "OptionKeywords",
    "QrError",
    "QrMatrix",
    "SvgKeywords",
    "TextKeywords",
    "TextStyle",
    "matrix",
    "png",
    "png_data_uri",
    "svg",
    "svg_data_uri",
    "text",
]
__all__ += _options.__all__
__version__ = "0.2.0"



def __getattr__(name: str) -> object:
    # `qrglue.Generator`, imported on first access (PEP 562).
    if name == "Generator":
        from ._component import Generator

        return Generator
    raise AttributeError(f"module 'qrglue' has no attribute {name!r}")


def _new_generator() -> BaseGenerator:
    from ._component import Generator

    return Generator()


_per_thread = PerThread(_new_generator)
png = _per_thread.png
svg = _per_thread.svg
png_data_uri = _per_thread.png_data_uri
svg_data_uri = _per_thread.svg_data_uri
matrix = _per_thread.matrix
text = _per_thread.text
