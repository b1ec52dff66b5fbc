"""The Python Extism path against the raw path, interleaved in one process
(tests/bench/README.md's method: every round runs every series once; a
sample is the mean of a batch sized in the warm-up to last settings.json's
batch_ms; each row is the median with p10 and p90). The raw path runs
qrglue.raw.wasm on wasmtime-py (pinned 50.0.1); the Extism path runs
guest/extism on the Wasmtime inside extism-sys's libextism (1.41.0).
Writes target/bench/extism-python.json; QRGLUE_BENCH_QUICK=1: quick settings.

    hosts/python/.venv/bin/python hosts/python/bench_extism.py
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import statistics
import time
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

import qrglue.extism
import qrglue.raw

REPO = Path(__file__).resolve().parents[3]


class Series:
    def __init__(self, path: str, op: str, text_id: str | None, size: int | None, call: Callable[[], Any],
                 per: int = 1) -> None:
        self.path, self.op, self.text_id, self.size, self.call, self.per = path, op, text_id, size, call, per
        self.batch = 1
        self.samples: list[float] = []
        self.out: Any = None

    def fit(self, batch_ms: float) -> None:
        start = time.perf_counter_ns()
        self.call()
        self.batch = max(1, int(batch_ms * 1e6 / max(time.perf_counter_ns() - start, 1)))

    def run(self, record: bool = True) -> None:
        call = self.call
        start = time.perf_counter_ns()
        for _ in range(self.batch):
            self.out = call()
        if record:
            self.samples.append((time.perf_counter_ns() - start) / self.batch / self.per)


def main() -> None:
    everything = json.loads((REPO / "tests" / "bench" / "settings.json").read_text())
    quick = os.environ.get("QRGLUE_BENCH_QUICK") == "1"
    mode = "quick" if quick else "full"
    settings = {**everything[mode], **everything.get("hosts", {}).get("python", {}).get(mode, {})}
    reference_id = everything["reference_text_id"]
    cases = json.loads((REPO / "tests" / "vectors" / "cases.json").read_text())["cases"]
    reference = next(c["text"] for c in cases if c["id"] == reference_id)
    repeat = settings["png_repeat_times"]
    gens = {"raw": qrglue.raw.Generator(), "extism": qrglue.extism.Generator()}
    series: list[Series] = []
    for path, gen in gens.items():
        series.append(Series(path, "png", reference_id, None, lambda g=gen: g.png(reference)))
        series.append(Series(path, "png-repeat", reference_id, None, lambda g=gen: g.png_repeat(reference, repeat),
                             per=repeat))
        series.append(Series(path, "noop", None, None, gen.noop))
        for n in settings["payload_sizes"]:
            payload = bytes(n)
            series.append(Series(path, "consume", None, n, lambda g=gen, p=payload: g.consume(p)))
            series.append(Series(path, "produce", None, n, lambda g=gen, n=n: g.produce(n)))
    for s in series:
        s.fit(settings["batch_ms"])
    for _ in range(settings["warmup_rounds"]):
        for s in series:
            s.run(record=False)
    for _ in range(settings["rounds"]):
        for s in series:
            s.run()
    rows = []
    for s in series:
        q = statistics.quantiles(s.samples, n=10, method="inclusive") if len(s.samples) > 1 else s.samples * 9
        png = s.out if s.op == "png" else None
        rows.append({"path": s.path, "op": s.op, "text_id": s.text_id, "bytes": s.size,
                     "median_ns": statistics.median(s.samples), "p10_ns": q[0], "p90_ns": q[-1],
                     "samples": len(s.samples), "output_bytes": len(png) if png else None,
                     "sha256": hashlib.sha256(png).hexdigest() if png else None})
        size = "-" if s.size is None else s.size
        print(f"{s.path:<7} {s.op:<11} {size:>8} {rows[-1]['median_ns'] / 1e3:10.2f} us"
              f"  p10 {q[0] / 1e3:.2f}  p90 {q[-1] / 1e3:.2f}")
    out = REPO / "target" / "bench" / "extism-python.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    engines = (f"raw: wasmtime-py {metadata.version('wasmtime')}; extism: extism {metadata.version('extism')} "
               f"over extism-sys {metadata.version('extism-sys')} (libextism's own Wasmtime)")
    out.write_text(json.dumps({"host": "python", "quick": quick, "engines": engines,
                               "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.system()} "
                                          f"{platform.release()}, CPython {platform.python_version()}",
                               "measurements": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
