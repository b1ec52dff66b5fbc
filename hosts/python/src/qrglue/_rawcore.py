"""How the raw path calls qrglue.raw.wasm's core functions and finds its
linear memory: `StockCore` through wasmtime-py's own API, `FastCore` through
the same C API that wasmtime-py wraps (`wasmtime._bindings`), without its
per-call overhead. Nothing in the installed wasmtime package is modified.

What stock wasmtime-py 50.0.1 does on every `Func.__call__`, and what
`FastCore` does instead:

1. Types. Stock asks the C API for the function's type and each parameter's
   type, converts every argument into a `wasmtime_val_t`, calls
   `wasmtime_func_call`, and converts the results back (~7.5 us for a call
   with no arguments at all). Here every export's signature is checked once
   per module against `EXPECTED_SIGNATURES` (all i32), and a call is
   `wasmtime_func_call_unchecked`: the i32 arguments are packed into one
   preallocated `wasmtime_val_raw_t` array with one `struct.pack_into`, and
   the result is read back from its first slot (~0.6 us for the same call).
   Unchecked calls are only sound when the types match, which is what the
   signature check guarantees.
2. Memory. Stock `Memory.data_ptr` / `data_len` build ctypes pointer objects;
   here the C functions are called through prototypes that return plain
   integers.

C functions are called through ctypes prototypes of our own (built from the
addresses of the bindings' functions), so the bindings' shared ctypes objects
are never changed. Like the fast component glue, `FastCore` is used only on
the wasmtime-py version it was written and tested against, and only when the
struct sizes it relies on are what the bindings declare; otherwise the raw
path uses `StockCore` and warns once.
"""

from __future__ import annotations

import ctypes
import struct
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn, Protocol

import wasmtime
from wasmtime import _bindings as bindings

from . import _loader

if TYPE_CHECKING:
    from _ctypes import CFuncPtr

# Every export of qrglue.raw.wasm the glue calls: name -> (i32 params, i32 results).
EXPECTED_SIGNATURES = {
    "qr_abi_version": (0, 1),
    "qr_alloc": (1, 1),
    "qr_free": (1, 1),
    "qr_png": (13, 1),
    "qr_svg": (17, 1),
    "qr_matrix": (13, 1),
    "qr_text": (14, 1),
    "qr_png_bytes": (13, 1),
    "qr_svg_bytes": (17, 1),
    "qr_matrix_bytes": (13, 1),
    "qr_text_bytes": (14, 1),
    "qr_png_repeat": (14, 1),
    "qr_noop": (0, 0),
    "qr_consume": (2, 1),
    "qr_produce": (1, 1),
    "qr_trap": (0, 0),
    "qr_memory_pages": (0, 1),
}

_VAL_RAW_SIZE = 16  # sizeof(wasmtime_val_raw_t): an i32 sits at offset 0
_FUNC_SIZE = 16  # sizeof(wasmtime_func_t): {store_id: u64, private: void*}

CoreFunc = Callable[..., int]


class Core(Protocol):
    """One instance's core functions and memory, for raw.RawCalls."""

    def func(self, name: str) -> CoreFunc:
        """`name` as a callable taking i32 arguments (ints) and returning its
        i32 result as an unsigned int (0 for a function without a result)."""
        ...

    def memory(self) -> tuple[int, int]:
        """(address, size in bytes) of linear memory now: re-read after any
        call that may grow it."""
        ...


def _exports(store: wasmtime.Store, instance: wasmtime.Instance) -> tuple[dict[str, wasmtime.Func], wasmtime.Memory]:
    exports = instance.exports(store)
    memory = exports["memory"]
    if not isinstance(memory, wasmtime.Memory):
        raise RuntimeError("qrglue.raw.wasm exports no memory")
    funcs = {}
    for name in EXPECTED_SIGNATURES:
        export = exports[name]
        if not isinstance(export, wasmtime.Func):
            raise RuntimeError(f"qrglue.raw.wasm export {name} is not a function")
        funcs[name] = export
    return funcs, memory


class StockCore:
    """wasmtime-py's own `Func.__call__` and `Memory` methods."""

    def __init__(self, store: wasmtime.Store, instance: wasmtime.Instance) -> None:
        self._store = store
        self._funcs, self._memory = _exports(store, instance)

    def func(self, name: str) -> CoreFunc:
        func, store = self._funcs[name], self._store
        if EXPECTED_SIGNATURES[name][1] == 0:

            def call_void(*args: int) -> int:
                func(store, *args)
                return 0

            return call_void

        def call(*args: int) -> int:
            # wasmtime-py returns an i32 as a signed int; the ABI's are unsigned.
            return int(func(store, *args)) & 0xFFFFFFFF

        return call

    def memory(self) -> tuple[int, int]:
        return (ctypes.addressof(self._memory.data_ptr(self._store).contents),
                self._memory.data_len(self._store))


def _prototype(restype: type | None, function: CFuncPtr, *argtypes: type) -> Callable[..., int | None]:
    """A ctypes function of our own over the C function behind a bindings
    function object (whose argtypes and restype stay as they are)."""
    address = ctypes.cast(function, ctypes.c_void_p).value
    factory: Callable[[int | None], Callable[..., int | None]] = ctypes.CFUNCTYPE(restype, *argtypes)
    return factory(address)


# What FastCore uses from the bindings; checked by `layout_matches`, so a
# wasmtime-py without one of them falls back instead of failing.
_BINDINGS_USED = ("_wasmtime_func_call_unchecked", "_wasmtime_memory_data", "_wasmtime_memory_data_size",
                  "wasmtime_val_raw_t", "wasmtime_func_t", "wasm_trap_t", "wasmtime_error_t",
                  "wasmtime_error_delete")


class _CFunctions:
    """Our prototypes of the C functions FastCore calls (made on first use)."""

    def __init__(self) -> None:
        void_p, size_t = ctypes.c_void_p, ctypes.c_size_t
        # wasmtime_error_t *wasmtime_func_call_unchecked(wasmtime_context_t *, const wasmtime_func_t *,
        #     wasmtime_val_raw_t *args_and_results, size_t args_and_results_len, wasm_trap_t **trap)
        self.call_unchecked = _prototype(void_p, bindings._wasmtime_func_call_unchecked,
                                         void_p, void_p, void_p, size_t, void_p)
        # uint8_t *wasmtime_memory_data(const wasmtime_context_t *, const wasmtime_memory_t *)
        self.memory_data = _prototype(void_p, bindings._wasmtime_memory_data, void_p, void_p)
        # size_t wasmtime_memory_data_size(const wasmtime_context_t *, const wasmtime_memory_t *)
        self.memory_data_size = _prototype(size_t, bindings._wasmtime_memory_data_size, void_p, void_p)


_c: _CFunctions | None = None
_checked_modules: set[int] = set()
_warned = False


def layout_matches() -> bool:
    """The sizes this module relies on, checked against the bindings
    (`wasmtime_val_raw_t` is a union: its i32 member is at offset 0)."""
    if not all(hasattr(bindings, name) for name in _BINDINGS_USED):
        return False
    return (ctypes.sizeof(bindings.wasmtime_val_raw_t) == _VAL_RAW_SIZE
            and issubclass(bindings.wasmtime_val_raw_t, ctypes.Union)
            and ctypes.sizeof(bindings.wasmtime_func_t) == _FUNC_SIZE)


def available(version: str | None = None) -> bool:
    """True when FastCore may run; otherwise warns (once per process)."""
    global _warned
    version = _loader.wasmtime_version() if version is None else version
    if version == _loader.SUPPORTED_WASMTIME and layout_matches():
        return True
    if not _warned:
        _warned = True
        warnings.warn(f"qrglue: fast raw glue is written for wasmtime-py {_loader.SUPPORTED_WASMTIME}, "
                      f"found {version}; using wasmtime-py's stock (slower) calls",
                      RuntimeWarning, stacklevel=3)
    return False


def _check_signatures(store: wasmtime.Store, funcs: dict[str, wasmtime.Func]) -> None:
    for name, func in funcs.items():
        ty = func.type(store)
        found = ([str(t) for t in ty.params], [str(t) for t in ty.results])
        params, results = EXPECTED_SIGNATURES[name]
        if found != (["i32"] * params, ["i32"] * results):
            raise RuntimeError(f"qrglue.raw.wasm export {name} is {found}, the fast raw glue expects "
                               f"{params} i32 params and {results} i32 results")


class FastCore:
    """Core calls through `wasmtime_func_call_unchecked`, types checked once.
    The callables from `func` hold plain addresses: they are valid while this
    object (which keeps the Store and the exports) lives."""

    def __init__(self, store: wasmtime.Store, instance: wasmtime.Instance, module: wasmtime.Module) -> None:
        global _c
        if _c is None:
            _c = _CFunctions()
        self._c = _c
        self._funcs, self._memory_export = _exports(store, instance)
        if id(module) not in _checked_modules:
            _check_signatures(store, self._funcs)
            _checked_modules.add(id(module))
        # Plain addresses, valid while `store` and the export objects live
        # (this object keeps both).
        self._store = store
        self._context: int = ctypes.cast(store._context(), ctypes.c_void_p).value or 0
        self._memory_address = ctypes.addressof(self._memory_export._memory)

    def func(self, name: str) -> CoreFunc:
        func = self._funcs[name]
        params, results = EXPECTED_SIGNATURES[name]
        slots = max(params, results, 1)
        # One arguments-and-results array per function, reused by every call.
        values = bytearray(slots * _VAL_RAW_SIZE)
        values_address = ctypes.addressof(ctypes.c_char.from_buffer(values))
        pack_arguments = struct.Struct("<" + "I12x" * params).pack_into
        result_words = memoryview(values).cast("I")  # result 0 is word 0 (unsigned i32)
        trap = ctypes.c_void_p()
        trap_address = ctypes.addressof(trap)
        func_address = ctypes.addressof(func._func)
        context, call_unchecked = self._context, self._c.call_unchecked

        def call(*args: int) -> int:
            pack_arguments(values, 0, *args)
            error = call_unchecked(context, func_address, values_address, slots, trap_address)
            if error or trap.value:
                _raise(error, trap)
            return result_words[0] if results else 0

        return call

    def memory(self) -> tuple[int, int]:
        address = self._c.memory_data(self._context, self._memory_address) or 0
        size = self._c.memory_data_size(self._context, self._memory_address) or 0
        return address, size


def _raise(error: int | None, trap: ctypes.c_void_p) -> NoReturn:
    """Turn what the C call left behind into the exception wasmtime-py would raise."""
    if trap.value:
        trap_ptr = ctypes.cast(trap.value, ctypes.POINTER(bindings.wasm_trap_t))
        trap.value = None
        if error:  # not expected together; the trap is what callers act on
            bindings.wasmtime_error_delete(ctypes.cast(error, ctypes.POINTER(bindings.wasmtime_error_t)))
        raise wasmtime.Trap._from_ptr(trap_ptr)
    if error:
        raise wasmtime.WasmtimeError._from_ptr(ctypes.cast(error, ctypes.POINTER(bindings.wasmtime_error_t)))
    raise RuntimeError("_raise called without an error or a trap")
