"""Minimal reproductions of the wasmtime-py 50.0.1 component-call defects in
UPSTREAM.md, on qrglue.component.wasm. Prints the measured costs.

    hosts/python/.venv/bin/python experiments/wasmtime-py/upstream_repro.py   (from the repository root)
"""

import os
import time
from collections.abc import Callable

import wasmtime
from wasmtime import component as wc

import qrglue._loader as loader
from qrglue._instance import export_func

engine = wasmtime.Engine()
component = wc.Component(engine, loader.wasm_bytes("qrglue.component.wasm"))
store = wasmtime.Store(engine)
instance = wc.Linker(engine).instantiate(store, component)


def func(interface: str, name: str) -> wc.Func:
    return export_func(store, instance, interface, name)


noop = func("qrglue:qr/probe@0.2.0", "noop")
produce = func("qrglue:qr/probe@0.2.0", "produce")
png = func("qrglue:qr/generator@0.2.0", "png")


def median_us(call: Callable[[], object], n: int = 2000) -> float:
    xs = []
    for _ in range(n):
        t = time.perf_counter_ns()
        call()
        xs.append(time.perf_counter_ns() - t)
    xs.sort()
    return xs[len(xs) // 2] / 1e3


# 1. Types re-read over FFI on every call.
t_call = median_us(lambda: noop(store))
t_type = median_us(lambda: (lambda ty: (ty.params, ty.result))(png.type(store)))
print(f"1. noop call {t_call:.1f} us; re-reading png's type (what every png call does) {t_type:.1f} us")

# 2. list<u8> lifted one element at a time.
small, big = median_us(lambda: produce(store, 0), 300), median_us(lambda: produce(store, 16384), 30)
print(f"2. produce(16384) - produce(0): {(big - small) * 1e3 / 16384:.0f} ns per byte")

# 3. result<...> payload box leaked (val_delete instead of val_free).
options = wc.Record()
setattr(options, "ec-level", "low")
setattr(options, "min-size", 200)
setattr(options, "quiet-zone", 4)
setattr(options, "scale", None)
for name, channels in (("dark", (0, 0, 0, 255)), ("light", (255, 255, 255, 255))):
    color = wc.Record()
    for channel, value in zip("rgba", channels, strict=True):
        setattr(color, channel, value)
    setattr(options, name, color)
setattr(options, "symbol", None)  # every symbol option automatic


def rss() -> int:
    return int(open("/proc/self/statm").read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


for _ in range(5000):
    png(store, "", options)  # result::err(qr-error::empty-text), no rendering
before = rss()
N = 100_000
for _ in range(N):
    png(store, "", options)
print(f"3. RSS growth {(rss() - before) / N:.0f} B per call returning a result "
      f"({(rss() - before) / 1e6:.1f} MB per 100,000 calls)")
