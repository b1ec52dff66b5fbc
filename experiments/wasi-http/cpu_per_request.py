"""CPU per request of a wasi-http tier's processes, at a fixed request rate.

On a loaded machine req/s measures the share of a core a server got, not
what it costs; the CPU its processes burn per answered request does not
depend (much) on the neighbours. Starts `serve.sh TIER` (the lattice: nginx,
two wash hosts, nats-server), sends RATE req/s of the reference URL with
vegeta for SECONDS through it, and prints each process name's CPU (user +
system, /proc ticks) per request, and the req/s one core would give at that
cost. Every answer must be 200 with the golden bytes.

Usage: cpu_per_request.py VEGETA TIER [RATE] [SECONDS]   (QRGLUE_NATS_SERVER for the lattice)
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "bench"))
from http_bench import free_port, get, process_tree, reference, start, stop

TICK = os.sysconf("SC_CLK_TCK")


def cpu_by_name(root: int) -> dict[str, int]:
    out: dict[str, int] = {}
    for pid in process_tree(root):
        try:
            name = Path(f"/proc/{pid}/comm").read_text().strip()
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[name] = out.get(name, 0) + int(fields[11]) + int(fields[12])
    return out


def main() -> int:
    vegeta, tier = sys.argv[1], sys.argv[2]
    rate = int(sys.argv[3]) if len(sys.argv) > 3 else 300
    seconds = float(sys.argv[4]) if len(sys.argv) > 4 else 10.0
    text, golden = reference()
    work = ROOT / "target" / "bench" / "cpu-work"
    work.mkdir(parents=True, exist_ok=True)
    port = free_port()
    process = start("wasi-http", tier, port, work / f"{tier}.log")
    try:
        target = "/qrcode?" + urllib.parse.urlencode({"text": text})
        status, body = get(port, target)
        assert status == 200 and hashlib.sha256(body).hexdigest() == golden, status
        (work / "targets.txt").write_text(f"GET http://127.0.0.1:{port}{target}\n")
        before = cpu_by_name(process.pid)
        results = subprocess.run([vegeta, "attack", f"-targets={work / 'targets.txt'}", f"-rate={rate}",
                                  f"-duration={seconds}s", "-timeout=10s", "-keepalive=true"],
                                 capture_output=True, check=True, timeout=seconds + 60).stdout
        after = cpu_by_name(process.pid)
    finally:
        stop(process)
    report = json.loads(subprocess.run([vegeta, "report", "-type=json"], input=results, capture_output=True,
                                       check=True).stdout)
    ok = int(report.get("status_codes", {}).get("200", 0))
    assert ok == report["requests"], report.get("status_codes")
    total = 0.0
    print(f"{tier}: {ok} requests at {rate}/s, p99 {report['latencies']['99th'] / 1e6:.1f} ms")
    for name in sorted(after):
        ms = (after[name] - before.get(name, 0)) * 1000 / TICK / ok
        total += ms
        print(f"  {name:<14}{ms:6.3f} ms CPU per request")
    print(f"  {'all':<14}{total:6.3f} ms CPU per request: {1000 / total:,.0f} req/s per core at that cost")
    return 0


if __name__ == "__main__":
    sys.exit(main())
