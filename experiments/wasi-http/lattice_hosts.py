"""What one production `wash host` serves on the server's core (issue 41, goal 3).

`just bench-http` runs every process of a tier on one core (taskset), so its
two-host lattice row divides that core between two wash hosts and nginx: its
req/s over 2 is not a per-host figure. This runs, in one process and in
interleaved rounds (the order rotated each round, so that the machine's
other load falls on every tier alike), with the bench's own start/attack
(tests/bench/http_bench.py: server on CPU 0, vegeta on CPU 1, 50 connections):

  lattice-1host  nginx + ONE wash host (+ nats-server, idle) on the core
  lattice        nginx + two wash hosts on the same core (the bench's tier)
  wasmcloud      `wash dev`
  qrglue         our own wasi:http server, a fresh instance per request

and prints per tier the median req/s with its min-max over the rounds, each
process's share of the core (user + system CPU time over the run), the load
average each round ran at, req/s per CPU-second the tier's processes got (what
a whole core would give, less sensitive to the neighbours' share), and the
ratios: to issue 41's wash dev figure (121 req/s, 2026-11-26) and, per round,
to wash dev and our server measured in the same round. Every answer must be
200 with the golden bytes (else exit 1). Writes target/bench/lattice-hosts.json.

Usage: lattice_hosts.py VEGETA [--rounds 3] [--seconds 12] [--warmup 3]
       (QRGLUE_NATS_SERVER: the nats-server of `just _setup-nats`)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import sys
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "bench"))
from http_bench import attack, cpu_share, cpu_ticks_by_pid, free_port, get, reference, start, stop

TIERS = ["lattice-1host", "lattice", "wasmcloud", "qrglue"]
WASH_DEV_ISSUE_41 = 121.0  # req/s, wash dev on one server core, 2026-11-26 (issue 41)


def run_tier(vegeta: str, tier: str, seconds: float, warmup: float, work: Path, text: str, golden: str) -> dict:
    port = free_port()
    process = start("wasi-http", tier, port, work / f"{tier}.log")
    try:
        target = "/qrcode?" + urllib.parse.urlencode({"text": text})
        status, body = get(port, target)
        if status != 200 or hashlib.sha256(body).hexdigest() != golden:
            raise RuntimeError(f"{tier}: first answer {status}, not the golden PNG")
        attack(vegeta, port, target, warmup, work)
        load = os.getloadavg()[0]
        before, started = cpu_ticks_by_pid(process.pid), time.monotonic()
        report = attack(vegeta, port, target, seconds, work)
        shares = cpu_share(before, cpu_ticks_by_pid(process.pid), time.monotonic() - started)
    finally:
        stop(process)
    ok = int(report.get("status_codes", {}).get("200", 0))
    return {"tier": tier, "req_per_s": report["throughput"], "requests": report["requests"],
            "non_2xx": report["requests"] - ok, "p99_ms": report["latencies"]["99th"] / 1e6,
            "load_average_1min": load, "cpu_share_by_process": shares}


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):,.0f} ({min(values):,.0f}–{max(values):,.0f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("vegeta")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=12.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--out", type=Path, default=ROOT / "target" / "bench" / "lattice-hosts.json")
    args = parser.parse_args()
    text, golden = reference()
    work = ROOT / "target" / "bench" / "lattice-hosts-work"
    work.mkdir(parents=True, exist_ok=True)
    rounds: list[dict[str, dict]] = []
    for n in range(args.rounds):
        order = TIERS[n % len(TIERS):] + TIERS[:n % len(TIERS)]
        got = {}
        for tier in order:
            row = run_tier(args.vegeta, tier, args.seconds, args.warmup, work, text, golden)
            got[tier] = row
            share = {name: "+".join(f"{c:.2f}" for c in cores if c >= 0.005)
                     for name, cores in row["cpu_share_by_process"].items()}
            print(f"round {n + 1} {tier:<14}{row['req_per_s']:>8,.0f} req/s  p99 {row['p99_ms']:7.1f} ms  "
                  f"non-2xx {row['non_2xx']}  load {row['load_average_1min']:.2f}  core share {share}", flush=True)
        rounds.append(got)
    print(f"\n{args.rounds} rounds of {args.seconds:g} s (after {args.warmup:g} s warm-up), server on CPU 0, "
          "median (min–max):\n")
    print("| tier | req/s | x 121 (issue 41's wash dev) | x wash dev, same round | x our server fresh, same round "
          "| share of the core used | req/s per CPU-second |")
    print("|---|---|---|---|---|---|---|")
    for tier in TIERS:
        rates = [r[tier]["req_per_s"] for r in rounds]
        x121 = [v / WASH_DEV_ISSUE_41 for v in rates]
        xdev = [r[tier]["req_per_s"] / r["wasmcloud"]["req_per_s"] for r in rounds]
        xours = [r[tier]["req_per_s"] / r["qrglue"]["req_per_s"] for r in rounds]
        used = [sum(sum(c) for c in r[tier]["cpu_share_by_process"].values()) for r in rounds]
        per_cpu = [r[tier]["req_per_s"] / u for r, u in zip(rounds, used)]
        print(f"| {tier} | {spread(rates)} | {statistics.median(x121):.1f} ({min(x121):.1f}–{max(x121):.1f}) | "
              f"{statistics.median(xdev):.2f} ({min(xdev):.2f}–{max(xdev):.2f}) | "
              f"{statistics.median(xours):.2f} ({min(xours):.2f}–{max(xours):.2f}) | "
              f"{statistics.median(used):.2f} ({min(used):.2f}–{max(used):.2f}) | {spread(per_cpu)} |")
    loads = [row["load_average_1min"] for r in rounds for row in r.values()]
    print(f"\nload average (1 min) at each measurement: {min(loads):.2f}–{max(loads):.2f}, "
          f"median {statistics.median(loads):.2f}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"seconds": args.seconds, "warmup": args.warmup, "rounds": rounds}, indent=1) + "\n")
    bad = [f"round {n + 1} {t}" for n, r in enumerate(rounds) for t, row in r.items() if row["non_2xx"]]
    if bad:
        print("non-2xx answers in: " + ", ".join(bad), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
