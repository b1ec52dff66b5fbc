"""The raw path on wasm3, an interpreter (pywasm3, pinned in
requirements-dev.txt): qrglue.raw.py's glue unchanged (`RawCalls._bind`),
over wasm3's exports and memory instead of wasmtime-py's. For the engine
table (tests/bench/README.md) and its conformance pass, not a path users
are offered: wasm3 is an interpreter, tens of times slower than a JIT.

wasm3 0.5.0 runs neither wasm SIMD nor reference types, so it loads
`qrglue.raw-nosimd.wasm`, which `just build-wasm` builds without simd128 and
re-encodes canonically (its call_indirect table index as the single byte an
MVP reader expects); the build proves it validates with both off.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from pathlib import Path
from typing import Any

import wasm3 as _wasm3

from ._common import GeneratorInUse, GuestTrap, QrError, QrMatrix
from ._generator import BaseGenerator, Calls, PerThread
from .raw import RawCalls

__all__ = ["Generator", "GeneratorInUse", "GuestTrap", "QrError", "QrMatrix", "matrix", "png", "svg", "text"]

NOSIMD_FILE = "qrglue.raw-nosimd.wasm"
# wasm3's own value stack (its interpreter's slots), not the guest's stack, which lives in linear memory.
STACK_BYTES = 1 << 20

_bytes: bytes | None = None


def module_path() -> Path:
    """The module: next to this file (`just build-python` copies it)."""
    return Path(__file__).with_name(NOSIMD_FILE)


class Wasm3Core:
    """`_rawcore.Core` on wasm3: one Environment and Runtime per instance
    (wasm3 compiles each function on its first call, inside the runtime)."""

    def __init__(self) -> None:
        global _bytes
        if _bytes is None:
            _bytes = module_path().read_bytes()
        self._env = _wasm3.Environment()
        self._runtime = self._env.new_runtime(STACK_BYTES)
        self._runtime.load(self._env.parse_module(_bytes))

    def func(self, name: str) -> Callable[..., int]:
        function = self._runtime.find_function(name)
        if function.ret_types:
            def call(*args: int) -> int:
                return int(function(*args)) & 0xFFFFFFFF  # wasm3 gives an i32 back signed
        else:
            def call(*args: int) -> int:
                function(*args)
                return 0
        return call

    def memory(self) -> tuple[int, int]:
        # Re-read on every call: a grown memory may have moved.
        view: Any = self._runtime.get_memory(0)
        return ctypes.addressof(ctypes.c_char.from_buffer(view)), len(view)


class Wasm3Calls(RawCalls):
    # Not RawCalls.__init__, which makes a wasmtime Store: the same glue, bound to wasm3's core.
    def __init__(self) -> None:
        self._bind(Wasm3Core())


class Generator(BaseGenerator):
    """The raw glue on wasm3. One call at a time, as qrglue.Generator."""

    def __init__(self) -> None:
        super().__init__()
        # wasm3 reports a trap (and any failure inside a call) as RuntimeError.
        self._trap_types = (RuntimeError,)

    def _new_calls(self) -> Calls:
        return Wasm3Calls()


_per_thread = PerThread(Generator)
png = _per_thread.png
svg = _per_thread.svg
matrix = _per_thread.matrix
text = _per_thread.text
