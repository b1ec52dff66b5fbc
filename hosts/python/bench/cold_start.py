"""Cold start, import to first png, compiled-code cache warm: qrglue's two
paths against the same steps done by hand with wasmtime-py (the floor:
import wasmtime, deserialize the cached code, instantiate, one call). Each
sample is a fresh interpreter; the four variants are interleaved. Prints
medians with p10/p90 in ms, and the `import wasmtime` share.

    .venv/bin/python bench/cold_start.py [SAMPLES]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile

TEXT = "https://www.reddit.com/r/rustjerk/top/?t=all"

QRGLUE = """
import time; t = time.perf_counter_ns()
import {module} as m
m.png({text!r})
print(time.perf_counter_ns() - t)
"""

# The floor: what any wasmtime-py program must do, with nothing of qrglue. Its
# engine has concurrency support off, as qrglue's (qrglue/_loader.py): wasmtime
# refuses code compiled under the other setting, and the cached code is qrglue's.
FLOOR_COMPONENT = """
import time; t = time.perf_counter_ns()
import wasmtime
from wasmtime import _bindings, component as wc
config = wasmtime.Config()
_bindings.wasmtime_config_concurrency_support_set(config.ptr(), False)
engine = wasmtime.Engine(config)
with open({cached!r}, "rb") as f:
    comp = wc.Component.deserialize(engine, f.read())
store = wasmtime.Store(engine)
instance = wc.Linker(engine).instantiate(store, comp)
gen = instance.get_export_index(store, "qrglue:qr/generator@0.2.0")
png = instance.get_func(store, instance.get_export_index(store, "png", gen))
def rgba(r, g, b, a):
    color = wc.Record()
    color.r, color.g, color.b, color.a = r, g, b, a
    return color
options = wc.Record()
setattr(options, "ec-level", "low"); setattr(options, "min-size", 200); setattr(options, "quiet-zone", 4)
options.scale = None; options.dark = rgba(0, 0, 0, 255); options.light = rgba(255, 255, 255, 255)
options.symbol = None
assert isinstance(png(store, {text!r}, options), bytes)
print(time.perf_counter_ns() - t)
"""

FLOOR_RAW = """
import time; t = time.perf_counter_ns()
import ctypes, wasmtime
from wasmtime import _bindings
config = wasmtime.Config()
_bindings.wasmtime_config_concurrency_support_set(config.ptr(), False)
engine = wasmtime.Engine(config)
with open({cached!r}, "rb") as f:
    module = wasmtime.Module.deserialize(engine, f.read())
store = wasmtime.Store(engine)
ex = wasmtime.Instance(store, module, []).exports(store)
data = {text!r}.encode()
ptr = ex["qr_alloc"](store, len(data))
base = ctypes.addressof(ex["memory"].data_ptr(store).contents)
ctypes.memmove(base + ptr, data, len(data))
record = ex["qr_png"](store, ptr, len(data), 0, 200, 4, 0, 0, 0x000000FF, 0xFFFFFFFF, 0, 0, 0, 0)
base = ctypes.addressof(ex["memory"].data_ptr(store).contents)
status = int.from_bytes(ctypes.string_at(base + record, 4), "little")
assert status == 0
ex["qr_free"](store, record)
print(time.perf_counter_ns() - t)
"""

IMPORT_WASMTIME = """
import time; t = time.perf_counter_ns()
import wasmtime
from wasmtime import component
print(time.perf_counter_ns() - t)
"""


def by_hand(cache: str, text: str) -> dict[str, str]:
    """The floor scripts ("component", "raw") on the compiled code that qrglue
    wrote to `cache` (QRGLUE_CACHE_DIR) for the two guests."""
    cached = {name.split(".wasm.")[0]: os.path.join(cache, name) for name in os.listdir(cache)
              if name.endswith(".cwasm")}
    return {"component": FLOOR_COMPONENT.format(cached=cached["qrglue.component"], text=text),
            "raw": FLOOR_RAW.format(cached=cached["qrglue.raw"], text=text)}


def run(script: str, env: dict[str, str]) -> float:
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    return int(done.stdout.strip()) / 1e6


def main() -> None:
    samples = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    with tempfile.TemporaryDirectory() as cache:
        # Bytecode is written and reused, as for an installed wheel (pip
        # compiles it at install): otherwise every start recompiles qrglue's
        # modules from source, while wasmtime's come precompiled.
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["QRGLUE_CACHE_DIR"] = cache
        for module in ("qrglue", "qrglue.raw"):  # fill the compiled-code and bytecode caches
            run(QRGLUE.format(module=module, text=TEXT), env)
        floor = by_hand(cache, TEXT)
        variants = {
            "qrglue (component)": QRGLUE.format(module="qrglue", text=TEXT),
            "by hand (component)": floor["component"],
            "qrglue.raw": QRGLUE.format(module="qrglue.raw", text=TEXT),
            "by hand (raw)": floor["raw"],
            "import wasmtime + wasmtime.component": IMPORT_WASMTIME,
        }
        times: dict[str, list[float]] = {name: [] for name in variants}
        for _ in range(samples):
            for name, script in variants.items():
                times[name].append(run(script, env))
    print(f"{'variant':40} {'median ms':>10} {'p10':>8} {'p90':>8}  (n={samples}, fresh interpreters, interleaved)")
    for name, xs in times.items():
        deciles = statistics.quantiles(xs, n=10, method="inclusive")
        print(f"{name:40} {statistics.median(xs):10.1f} {deciles[0]:8.1f} {deciles[-1]:8.1f}")


if __name__ == "__main__":
    main()
