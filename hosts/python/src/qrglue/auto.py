"""qrglue.auto: the API of `qrglue` through the fastest path this install has.

The native extension (`qrglue.native`, the `qrglue-native` distribution)
where it is installed, else the component path (`qrglue`), which needs
nothing but this package. `path` says which was chosen. Only a missing
extension falls back: one that is installed but fails to load raises, so a
broken install is never silently slower (as Node's `qrglue/auto`).

    import qrglue.auto
    data = qrglue.auto.png("https://example.com")
    qrglue.auto.path  # "native" or "component"
"""

from __future__ import annotations

from typing import Literal

from ._common import (
    DEFAULT_EC_LEVEL,
    EC_LEVELS,
    ERROR_KINDS,
    MAX_TEXT_BYTES,
    TEXT_STYLES,
    GuestTrap,
    QrError,
    QrMatrix,
)

__all__ = ["DEFAULT_EC_LEVEL", "EC_LEVELS", "ERROR_KINDS", "MAX_TEXT_BYTES", "TEXT_STYLES", "GuestTrap", "QrError",
           "QrMatrix", "matrix", "path", "png", "png_data_uri", "svg", "svg_data_uri", "text"]


def _choose() -> Literal["native", "component"]:
    try:
        import qrglue.native  # noqa: F401  (loads the extension, or says why not)
    except ImportError as e:
        # qrglue.native raises ImportError named after itself when the
        # extension is not installed; any other is a broken install.
        if e.name != "qrglue.native":
            raise
        return "component"
    return "native"


path = _choose()
"""The path this module uses: "native" (the extension) or "component" (wasm)."""

if path == "native":
    from .native import matrix, png, png_data_uri, svg, svg_data_uri, text
else:
    from . import matrix, png, png_data_uri, svg, svg_data_uri, text
