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

import threading

from ._common import (DEFAULT_EC_LEVEL, DEFAULT_MIN_SIZE, DEFAULT_QUIET_ZONE, EC_LEVELS,
                      ERROR_KINDS, GuestTrap, QrError)
from ._component import Generator

__all__ = ["png", "svg", "Generator", "QrError", "GuestTrap", "EC_LEVELS", "ERROR_KINDS"]
__version__ = "0.1.0"

_per_thread = threading.local()


def _generator() -> Generator:
    # One instance per thread: a wasmtime Store must not be shared across threads.
    gen = getattr(_per_thread, "generator", None)
    if gen is None:
        gen = _per_thread.generator = Generator()
    return gen


def png(text: str, *, ec_level: str = DEFAULT_EC_LEVEL, min_size: int = DEFAULT_MIN_SIZE,
        quiet_zone: int = DEFAULT_QUIET_ZONE) -> bytes:
    """The QR code for `text` as PNG bytes. Thread-safe. Raises QrError."""
    return _generator().png(text, ec_level=ec_level, min_size=min_size, quiet_zone=quiet_zone)


def svg(text: str, *, ec_level: str = DEFAULT_EC_LEVEL, min_size: int = DEFAULT_MIN_SIZE,
        quiet_zone: int = DEFAULT_QUIET_ZONE) -> str:
    """The QR code for `text` as an SVG document. Thread-safe. Raises QrError."""
    return _generator().svg(text, ec_level=ec_level, min_size=min_size, quiet_zone=quiet_zone)
