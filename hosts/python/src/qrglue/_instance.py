"""Component instance plumbing shared by the stock and the fast glue: a fresh
Store + instance of qrglue.component.wasm, and its exported functions."""

from __future__ import annotations

import wasmtime
from wasmtime import component as wc

from . import _loader

GENERATOR_INTERFACE = "qrglue:qr/generator@0.2.0"
PROBE_INTERFACE = "qrglue:qr/probe@0.2.0"


def instantiate() -> tuple[wasmtime.Store, wc.Instance]:
    """A fresh Store and component instance (the component imports nothing)."""
    engine = _loader.engine()
    store = wasmtime.Store(engine)
    instance = wc.Linker(engine).instantiate(store, _loader.component())
    return store, instance


def export_func(store: wasmtime.Store, instance: wc.Instance, interface: str, name: str) -> wc.Func:
    """The function `name` of the exported `interface`; RuntimeError if absent."""
    interface_index = instance.get_export_index(store, interface)
    func_index = instance.get_export_index(store, name, interface_index) if interface_index else None
    func = instance.get_func(store, func_index) if func_index else None
    if func is None:
        raise RuntimeError(f"component does not export {interface}#{name}")
    return func
