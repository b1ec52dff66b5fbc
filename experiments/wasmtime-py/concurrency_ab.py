"""What does wasmtime's `concurrency_support` cost a Python call (issue 34,
item 4)? Two Engines in one process, one with wasmtime's default config
(concurrency support on: wasmtime-py's libwasmtime is built with
component-model-async) and one with it off, the way `_loader.engine()` now
builds it; each compiles the component and the raw module afresh, and each
runs a fast-glue Generator of both paths.

    hosts/python/.venv/bin/python experiments/wasmtime-py/concurrency_ab.py [ROUNDS]

Every round times a batch (~3 ms) of each op on each engine, the order
reversed every other round. Prints µs per call, median [p10, p90], and per
op the per-round difference off - on."""

from __future__ import annotations

import functools
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

os.environ["QRGLUE_CACHE_DIR"] = ""  # compile in each engine, never share a cache file

import wasmtime

import qrglue
import qrglue.raw
from qrglue import _loader

URL = "https://www.reddit.com/r/rustjerk/top/?t=all"  # ref-02
ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 100

if _loader.wasmtime_version() != _loader.SUPPORTED_WASMTIME:
    sys.exit(f"wasmtime-py {_loader.wasmtime_version()}: the fast glue is for {_loader.SUPPORTED_WASMTIME}")


def generators(engine: wasmtime.Engine) -> dict[str, qrglue.Generator | qrglue.raw.Generator]:
    """The component and raw fast-glue generators over `engine`."""
    _loader._engine, _loader._component, _loader._raw_module = engine, None, None
    gens: dict[str, qrglue.Generator | qrglue.raw.Generator] = {"component": qrglue.Generator(glue="fast"), "raw": qrglue.raw.Generator(glue="fast")}
    for g in gens.values():
        g.png(URL)  # instantiates (and compiles) now, in this engine
    return gens


engines = {"on (wasmtime default)": wasmtime.Engine(), "off": _loader.engine_without_concurrency()}
# Any engine the loader would build later is the last one set: irrelevant here, nothing traps.
gens = {name: generators(engine) for name, engine in engines.items()}
reference = gens["off"]["raw"].png(URL)
for name, pair in gens.items():
    for path, g in pair.items():
        assert g.png(URL) == reference, (name, path)

# [op, engine, call, [batch, samples]]
series: list[tuple[str, str, Callable[[], object], list[Any]]] = []
for name, pair in gens.items():
    for path, g in pair.items():
        series.append((f"{path} noop", name, g.noop, [1, []]))
        series.append((f"{path} png", name, functools.partial(g.png, URL), [1, []]))


def run(entry: tuple[str, str, Callable[[], object], list[Any]], record: bool) -> None:
    call, state = entry[2], entry[3]
    batch = state[0]
    t = time.perf_counter_ns()
    for _ in range(batch):
        call()
    elapsed = time.perf_counter_ns() - t
    if record:
        state[1].append(elapsed / batch / 1e3)
    else:
        state[0] = max(1, round(3_000_000 * batch / max(1, elapsed)))


for _ in range(10):
    for entry in series:
        run(entry, False)
for r in range(ROUNDS):
    for entry in series if r % 2 == 0 else reversed(series):
        run(entry, True)


def q(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[round(p * (len(s) - 1))]


print(f"wasmtime-py {_loader.wasmtime_version()}, {ROUNDS} rounds; µs per call, median [p10, p90]")
for op, name, _call, state in series:
    samples = state[1]
    print(f"{op:15} concurrency {name:22} {statistics.median(samples):8.2f} [{q(samples, 0.1):.2f}, {q(samples, 0.9):.2f}]")
print("off - on, per round: median [p10, p90]")
for op in dict.fromkeys(s[0] for s in series):
    on, off = (next(s[3][1] for s in series if s[0] == op and s[1] == n) for n in engines)
    d = [b - a for a, b in zip(on, off)]
    print(f"{op:15} {statistics.median(d):+8.2f} [{q(d, 0.1):+.2f}, {q(d, 0.9):+.2f}]")
