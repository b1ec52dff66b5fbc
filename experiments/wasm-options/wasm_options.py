"""Guest-only time per png (qr_png_repeat, the reference URL) of raw-ABI .wasm
builds in wasmtime (wasmtime-py), one process, interleaved like
wasm-options.mjs. The builds must speak raw ABI 4 (qr_abi_version): the
default options, then scale none, black on white, every symbol option
automatic. Usage: hosts/python/.venv/bin/python experiments/wasm-options/wasm_options.py a.wasm b.wasm ..."""
import os
import sys
import time

import wasmtime

files = sys.argv[1:]
names = [os.path.basename(f).removesuffix(".wasm") for f in files]
eng = wasmtime.Engine()
url = b'https://www.reddit.com/r/rustjerk/top/?t=all'
ms = []
for n, f in zip(names, files):
    store = wasmtime.Store(eng)
    inst = wasmtime.Instance(store, wasmtime.Module.from_file(eng, f), [])
    ex = inst.exports(store)
    abi = ex['qr_abi_version'](store)
    if abi != 4:
        sys.exit(f"{f} speaks raw ABI {abi}; this script passes ABI 4's arguments")
    ms.append((n, store, ex))
TIMES = 20
res = {n: [] for n in names}
for r in range(-5, 60):
    for k in range(len(ms)):
        n, store, ex = ms[(k + r + 100) % len(ms)]
        best = 1e18
        for _ in range(3):
            ptr = ex['qr_alloc'](store, len(url))
            ex['memory'].write(store, url, ptr)
            t = time.perf_counter_ns()
            # ec low, min-size 200, quiet-zone 4, no scale, dark, light, no symbol flags/version/min-version/mask
            rec = ex['qr_png_repeat'](store, ptr, len(url), 0, 200, 4, 0, 0, 0x000000FF, 0xFFFFFFFF, 0, 0, 0, 0,
                                      TIMES)
            best = min(best, (time.perf_counter_ns() - t) / TIMES / 1e3)
            ex['qr_free'](store, rec)
        if r >= 0: res[n].append(best)
def q(a, p):
    s = sorted(a); return s[round(p * (len(s) - 1))]
for n in names:
    ratio = [v / b for v, b in zip(res[n], res[names[0]])]
    print(f"{n:10} wasmtime guest-only us/png {q(res[n],.5):.1f} [{q(res[n],.1):.1f}, {q(res[n],.9):.1f}]  /{names[0]} per round {q(ratio,.5):.3f} [{q(ratio,.1):.3f}, {q(ratio,.9):.3f}]")
