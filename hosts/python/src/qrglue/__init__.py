"""qrglue: QR codes from one Rust generator compiled to wasm.

`qrglue.png` / `qrglue.svg` go through the WebAssembly component
(qrglue.component.wasm) with wasmtime-py's component API; `qrglue.raw` offers
the same API over the hand-written raw ABI. Both give byte-identical output.

    import qrglue
    data = qrglue.png("https://example.com", ec_level="medium", min_size=300)

Errors raise `qrglue.QrError` (a ValueError) whose `.kind` is one of
empty-text, invalid-text, data-too-long, invalid-options.
"""

from __future__ import annotations

from ._common import DEFAULT_EC_LEVEL, DEFAULT_MIN_SIZE, DEFAULT_QUIET_ZONE, EC_LEVELS, ERROR_KINDS, GuestTrap, QrError
from ._component import Generator
from ._generator import PerThread

__all__ = [
    "DEFAULT_EC_LEVEL",
    "DEFAULT_MIN_SIZE",
    "DEFAULT_QUIET_ZONE",
    "EC_LEVELS",
    "ERROR_KINDS",
    "Generator",
    "GuestTrap",
    "QrError",
    "png",
    "svg",
]
__version__ = "0.1.0"

_per_thread = PerThread(Generator)
png = _per_thread.png
svg = _per_thread.svg
