"""The component path: qrglue.component.wasm through wasmtime-py's component
API. `Generator` picks the glue: the fast glue (`_fastglue.py`) on the
wasmtime-py version it was written for, else the stock glue (`_stockglue.py`).
"""

from __future__ import annotations

from . import _fastglue
from ._generator import BaseGenerator, Calls
from ._stockglue import StockCalls

GLUES = ("auto", "fast", "stock")


class Generator(BaseGenerator):
    """The component path on its own Store. See BaseGenerator for thread safety.

    `glue`: "auto" (default) uses the fast glue (`_fastglue.py`) when the
    installed wasmtime-py is the version it was written for and the
    component's exports are the signatures it expects, else the stock
    conversion with one warning; "fast" insists (RuntimeError otherwise);
    "stock" always uses wasmtime-py's own conversion.
    """

    def __init__(self, *, glue: str = "auto") -> None:
        if glue not in GLUES:
            raise ValueError(f"glue must be auto, fast or stock, not {glue!r}")
        if glue == "fast" and not _fastglue.available():
            raise RuntimeError("the fast component glue is not available for this wasmtime-py")
        self._glue = glue
        self.fast = glue != "stock" and _fastglue.available()
        super().__init__()

    def _new_calls(self) -> Calls:
        if self.fast:
            try:
                return _fastglue.FastCalls()
            except _fastglue.GlueMismatch as e:
                # Degrade, never break: the stock glue reads any signature.
                if self._glue == "fast":
                    raise
                _fastglue.warn_fallback(str(e))
                self.fast = False
        return StockCalls()
