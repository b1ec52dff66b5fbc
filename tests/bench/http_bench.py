"""`just bench-http [--quick]`: the server experiment (tests/http/README.md).

For every host and tier: start the server (its serve.sh) pinned to one core,
check its answer for the reference URL, warm it up, then drive it with vegeta
pinned to the other core: a fixed number of connections, a fixed duration, on
127.0.0.1 only. Records per tier req/s, mean/p50/p99/max latency, non-2xx
count, response size and the server's peak RSS (every process of it, sampled
every 50 ms), then stops the server (SIGTERM to its process group).

Writes target/bench/http.json (schema: tests/bench/README.md, "http.json").
Exits 1 if any tier answered anything but 200, or a qrglue tier's bytes
differ from the golden PNG: a load test that hides errors measures nothing.

Standard library only. Usage:
    python3 tests/bench/http_bench.py --vegeta PATH [--quick] [--only HOST/TIER ...]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "target" / "bench" / "http.json"
# The experiment's text and its comparison order: tier 0 (the host language's
# own library) first, then each way of bringing the Rust in, then the ceiling.
TIERS = {
    "node": ["qrcode", "cli", "component", "raw", "bindgen", "native", "static"],
    "python": ["segno", "cli", "component", "raw", "native", "static"],
    "rust": ["axum", "static"],
    "go": ["go-qrcode", "cli", "raw", "native", "static"],
    "java": ["zxing", "cli", "raw", "native", "static"],
    # The wasi:http component under each server (hosts/wasi-http), its tier 0 axum.
    "wasi-http": ["qrglue", "qrglue-reuse", "qrglue-static",
                  "wasmtime", "wasmtime-reuse", "wasmtime-static", "jco", "jco-static", "wasmcloud",
                  "lattice-1host", "lattice"],
}
# The lattice (hosts/wasi-http/server/lattice.py: nginx in front of N `wash
# host`s, nats-server beside them) runs, like every tier, on the server's one
# core: every process of it shares CPU SERVER_CPUS. So its req/s is per core,
# not per host: row lattice-1host (one wash host + nginx) is what one host
# serves on a core; row lattice (two hosts, the tested deployment) shows that
# a second host on the same core adds nothing. Bench tier -> (serve.sh tier,
# its flags, wash hosts).
LATTICE_TIERS = {"lattice-1host": ("lattice", ["--hosts", "1"], 1), "lattice": ("lattice", ["--hosts", "2"], 2)}
PEER_TIERS = {"qrcode", "segno", "go-qrcode", "zxing"}  # their own encoders: other bytes, by design
SERVER_CPUS = "0"
LOADGEN_CPUS = "1"
CONNECTIONS = 50  # the experiment's concurrency, on a 2-core machine


def reference() -> tuple[str, str]:
    cases = json.loads((ROOT / "tests/vectors/cases.json").read_text())["cases"]
    expected = json.loads((ROOT / "tests/vectors/expected.json").read_text())
    text = next(c["text"] for c in cases if c["id"] == "ref-02")
    return text, expected["ref-02"]["png_sha256"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get(port: int, target: str, timeout: float = 10.0) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{target}", timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def process_tree(root_pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry.name}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    tree, todo = [], [root_pid]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(children.get(pid, []))
    return tree


def rss_bytes(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            pass
    return total


def cpu_ticks_by_pid(root_pid: int) -> dict[int, tuple[str, int]]:
    """User + system CPU ticks of every process of the server, by pid: (name, ticks)."""
    out = {}
    for pid in process_tree(root_pid):
        try:
            name = Path(f"/proc/{pid}/comm").read_text().strip()
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[pid] = (name, int(fields[11]) + int(fields[12]))
    return out


def cpu_share(before: dict[int, tuple[str, int]], after: dict[int, tuple[str, int]],
              seconds: float) -> dict[str, list[float]]:
    """Each process's share of one core over `seconds`, grouped by name (a lattice's hosts, one by one)."""
    tick = os.sysconf("SC_CLK_TCK")
    out: dict[str, list[float]] = {}
    for pid, (name, ticks) in after.items():
        used = ticks - before.get(pid, (name, 0))[1]
        out.setdefault(name, []).append(round(used / tick / seconds, 3))
    return {name: sorted(shares, reverse=True) for name, shares in sorted(out.items())}


class PeakRss:
    """Samples the RSS of the server's whole process tree until stopped; also
    each process's own peak, by its name (a lattice's hosts, one by one)."""

    def __init__(self, pid: int) -> None:
        self.pid, self.peak, self._stop = pid, 0, threading.Event()
        self.per_pid: dict[int, tuple[str, int]] = {}
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            pids = process_tree(self.pid)
            self.peak = max(self.peak, rss_bytes(pids))
            for pid in pids:
                try:
                    name = Path(f"/proc/{pid}/comm").read_text().strip()
                except OSError:
                    continue
                self.per_pid[pid] = (name, max(self.per_pid.get(pid, (name, 0))[1], rss_bytes([pid])))
            self._stop.wait(0.05)

    def by_name(self) -> dict[str, list[int]]:
        """Each process's peak RSS, grouped by process name."""
        names: dict[str, list[int]] = {}
        for name, peak in self.per_pid.values():
            names.setdefault(name, []).append(peak)
        return names

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def start(host: str, tier: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    # One worker: the server has one core (taskset, inherited by every child
    # process: the lattice's nginx, wash hosts and nats-server share it);
    # `--workers` is the clustered servers' worker count and wasmtime serve's tokio threads.
    serve_tier, flags, _ = LATTICE_TIERS.get(tier, (tier, [], 1))
    command = ["taskset", "-c", SERVER_CPUS, "bash", str(ROOT / f"hosts/{host}/server/serve.sh"), serve_tier,
               str(port), "--workers", "1", *flags]
    process = subprocess.Popen(command, cwd=ROOT, stdout=log.open("wb"), stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{host}/{tier} exited ({process.returncode}):\n{log.read_text()[-2000:]}")
        try:
            if get(port, "/healthz", timeout=1)[0] == 200:
                return process
        except OSError:
            pass
        time.sleep(0.1)
    stop(process)
    raise RuntimeError(f"{host}/{tier} did not answer /healthz within 60 s:\n{log.read_text()[-2000:]}")


def stop(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def attack(vegeta: str, port: int, target: str, seconds: float, work: Path) -> dict:
    """vegeta at full speed with CONNECTIONS workers for `seconds`; its JSON report."""
    targets = work / "targets.txt"
    targets.write_text(f"GET http://127.0.0.1:{port}{target}\n")
    results = work / "results.bin"
    with results.open("wb") as out:
        subprocess.run(["taskset", "-c", LOADGEN_CPUS, vegeta, "attack", f"-targets={targets}", "-rate=0",
                        f"-workers={CONNECTIONS}", f"-max-workers={CONNECTIONS}", f"-connections={CONNECTIONS}",
                        f"-duration={seconds}s", "-timeout=10s", "-keepalive=true"],
                       stdout=out, check=True, timeout=seconds + 60)
    report = subprocess.run([vegeta, "report", "-type=json", str(results)], capture_output=True, check=True, text=True)
    return json.loads(report.stdout)


def bench_tier(vegeta: str, host: str, tier: str, seconds: float, warmup: float, work: Path,
               text: str, golden: str) -> dict:
    port = free_port()
    process = start(host, tier, port, work / f"{host}-{tier}.log")
    try:
        target = "/qrcode?" + urllib.parse.urlencode({"text": text})
        status, body = get(port, target)
        digest = hashlib.sha256(body).hexdigest()
        attack(vegeta, port, target, warmup, work)
        with PeakRss(process.pid) as rss:
            cpu_before, started = cpu_ticks_by_pid(process.pid), time.monotonic()
            report = attack(vegeta, port, target, seconds, work)
            shares = cpu_share(cpu_before, cpu_ticks_by_pid(process.pid), time.monotonic() - started)
    finally:
        stop(process)
    lat = report["latencies"]
    codes = report.get("status_codes", {})
    ok = int(codes.get("200", 0))
    return {
        "host": host, "tier": tier, "seconds": seconds, "connections": CONNECTIONS, "workers": 1,
        "requests": report["requests"], "req_per_s": report["throughput"],
        "mean_ns": lat["mean"], "p50_ns": lat["50th"], "p99_ns": lat["99th"], "max_ns": lat["max"],
        "non_2xx": report["requests"] - ok, "errors": report.get("errors", [])[:5],
        "status_codes": codes, "response_bytes": len(body), "first_status": status,
        "peer": tier in PEER_TIERS, "digest_match": None if tier in PEER_TIERS else digest == golden,
        "peak_rss_bytes": rss.peak,
        "hosts": LATTICE_TIERS.get(tier, ("", [], 1))[2],
        "peak_rss_bytes_by_process": rss.by_name() if tier in LATTICE_TIERS else None,
        "cpu_share_by_process": shares if tier in LATTICE_TIERS else None,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vegeta", required=True, help="the vegeta binary (just bench-http installs v12.13.0)")
    parser.add_argument("--quick", action="store_true", help="a few seconds per tier (smoke run)")
    parser.add_argument("--only", nargs="*", default=[], help="HOST/TIER to run (default: every tier)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    if (os.cpu_count() or 1) < 2:
        print("bench-http: needs 2 cores (server on one, load generator on the other)", file=sys.stderr)
        return 2
    seconds, warmup = (3.0, 1.0) if args.quick else (30.0, 3.0)
    text, golden = reference()
    work = ROOT / "target" / "bench" / "http-work"
    work.mkdir(parents=True, exist_ok=True)
    rows, failed = [], []
    started = time.monotonic()
    for host, tiers in TIERS.items():
        for tier in tiers:
            if args.only and f"{host}/{tier}" not in args.only:
                continue
            row = bench_tier(args.vegeta, host, tier, seconds, warmup, work, text, golden)
            rows.append(row)
            bad = row["non_2xx"] or row["first_status"] != 200 or row["digest_match"] is False
            if bad:
                failed.append(f"{host}/{tier}: {row['non_2xx']} non-2xx {row['status_codes']} {row['errors']}, "
                              f"first answer {row['first_status']}, golden {row['digest_match']}")
            print(f"{host:<10}{tier:<16}{row['req_per_s']:>10,.0f} req/s  mean {row['mean_ns'] / 1e6:7.2f} ms  "
                  f"p99 {row['p99_ns'] / 1e6:7.2f} ms  {row['response_bytes']:>5} B  "
                  f"peak RSS {row['peak_rss_bytes'] / 2**20:7.1f} MiB  non-2xx {row['non_2xx']}", flush=True)
            if row["cpu_share_by_process"] is not None:
                rss_by = {name: " + ".join(f"{b / 2**20:.1f}" for b in sorted(peaks))
                          for name, peaks in sorted((row["peak_rss_bytes_by_process"] or {}).items())}
                share = {name: " + ".join(f"{c:.2f}" for c in cores) for name, cores in row["cpu_share_by_process"].items()}
                print(f"{'':<26}{row['hosts']} wash host(s), nginx and nats-server on CPU {SERVER_CPUS}: req/s per core, "
                      f"not per host; share of the core by process: {share}; peak RSS MiB by process: {rss_by}",
                      flush=True)
    vegeta_version = "v12.13.0"
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({
        "schema": "qrglue-http-bench/1", "quick": args.quick, "text_id": "ref-02",
        "machine": {"cpu_count": os.cpu_count(), "platform": platform.platform(), "server_cpus": SERVER_CPUS,
                    "loadgen_cpus": LOADGEN_CPUS, "load_generator": f"vegeta {vegeta_version}",
                    "connections": CONNECTIONS, "seconds_per_tier": seconds, "warmup_seconds": warmup},
        "rows": rows,
    }, indent=1) + "\n")
    print(f"bench-http: {len(rows)} tiers in {time.monotonic() - started:.0f} s -> {args.out}")
    if failed:
        print("bench-http: tiers with errors:\n  " + "\n  ".join(failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
