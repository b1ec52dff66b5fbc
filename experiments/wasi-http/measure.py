#!/usr/bin/env python3
"""A quick, bounded loopback measurement of the wasi:http tiers (no load
generator: `just bench-http` is the real one).

For each tier: start it (serve.sh), warm it up, then
  - latency: N sequential GETs of the reference URL on one keep-alive
    connection, median and p90 in us (client overhead included, the same for
    every tier, so differences between tiers are server-side costs);
  - throughput: C keep-alive connections from C threads for S seconds, req/s
    (one Python process: indicative only, the client is the bottleneck near
    the static ceiling).
Every body is checked against the golden digest.

  python3 experiments/wasi-http/measure.py [--n 2000] [--conns 8] [--secs 3] [TIER[:EXTRA WASMTIME FLAGS]] ...

A tier may carry its own `wasmtime serve` flags after a colon, in place of
serve.sh's tuned allocator flags, e.g. `wasi-http:-O pooling-allocator=n`
(wasmtime's defaults; passed as QRGLUE_WASMTIME_FLAGS).
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REF = "/qrcode?text=https://www.reddit.com/r/rustjerk/top/?t=all"
GOLDEN = json.loads((ROOT / "tests/vectors/expected.json").read_text())["ref-02"]["png_sha256"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


TARGET = REF


def get(conn: http.client.HTTPConnection) -> None:
    conn.request("GET", TARGET)
    r = conn.getresponse()
    body = r.read()
    if r.status != 200 or (TARGET == REF and hashlib.sha256(body).hexdigest() != GOLDEN):
        raise RuntimeError(f"status {r.status}, {len(body)} B")


def measure(tier: str, extra: str, n: int, conns: int, secs: float) -> dict[str, float | str]:
    port = free_port()
    env = dict(os.environ, QRGLUE_WASMTIME_FLAGS=extra) if extra else dict(os.environ)
    proc = subprocess.Popen(["bash", str(ROOT / "hosts/wasi-http/server/serve.sh"), tier, str(port)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                get(c)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        for _ in range(300):  # warm-up
            get(c)
        lat = []
        for _ in range(n):
            t = time.perf_counter_ns()
            get(c)
            lat.append((time.perf_counter_ns() - t) / 1000)
        c.close()
        lat.sort()
        done = [0] * conns
        stop = time.monotonic() + secs

        def worker(i: int) -> None:
            cc = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            while time.monotonic() < stop:
                get(cc)
                done[i] += 1
            cc.close()

        threads = [threading.Thread(target=worker, args=(i,)) for i in range(conns)]
        t0 = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        rps = sum(done) / (time.monotonic() - t0)
        return {"tier": tier + (f" {extra}" if extra else ""), "median_us": statistics.median(lat),
                "p90_us": lat[int(len(lat) * 0.9)], "req_s": rps}
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--conns", type=int, default=8)
    ap.add_argument("--secs", type=float, default=3.0)
    ap.add_argument("--target", default=REF, help="request target (default: the reference URL; e.g. /healthz)")
    tiers = ["wasmtime-static", "wasi-http", "wasmtime-reuse", "jco-static", "jco"]
    ap.add_argument("tiers", nargs="*", default=tiers)
    args = ap.parse_args()
    global TARGET
    TARGET = args.target
    print(f"{'tier':<52} {'median us':>10} {'p90 us':>8} {'req/s':>8}")
    for spec in args.tiers:
        tier, _, extra = spec.partition(":")
        r = measure(tier, extra, args.n, args.conns, args.secs)
        print(f"{r['tier']:<52} {r['median_us']:>10.0f} {r['p90_us']:>8.0f} {r['req_s']:>8.0f}", flush=True)


if __name__ == "__main__":
    main()
