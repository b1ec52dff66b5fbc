"""`just soak MINUTES`: nothing grows. Every server tier (tests/http/README.md)
under vegeta at a fixed moderate rate on 127.0.0.1, all at once, and every
in-process path (one process per host: tests/soak/loop_*.{py,mjs},
hosts/go/cmd/qrglue-soak,
hosts/java's SoakLoop) in a
loop at a fixed rate, for MINUTES. Samples each server's RSS and open file
descriptors (its whole process tree) and each loop's RSS every second.

Verdict per process, after a warm-up (a fifth of the run, at least 10 s;
caches, JIT, heap sizing, allocator pools): the median of the last ten
samples may exceed the largest warm-up sample by at most max(RSS_BOUND_MIB,
RSS_BOUND_FRACTION of it), and open descriptors by at most FD_BOUND (a
connection or two of vegeta's in flight). Every request must answer 200,
and each qrglue tier's first answer must be the golden PNG. Exits 1
otherwise. Writes target/soak/soak.json (every series; --out names another) and prints a table
(start, after warm-up, end) per process.

Reuses tests/bench/http_bench.py's server start/stop and RSS code.
Usage: python3 tests/soak/soak.py --vegeta PATH --minutes M [--rate R] [--only HOST/TIER ...] [--exclude HOST ...] [--no-inproc]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests/bench"))
from http_bench import PEER_TIERS, TIERS, free_port, get, reference, rss_bytes, start, stop  # noqa: E402

OUT = ROOT / "target" / "soak"
RSS_BOUND_MIB = 16
RSS_BOUND_FRACTION = 0.10
FD_BOUND = 8
# In-process loops: one process per host, every path of that host.
INPROC = {
    "python": [str(ROOT / "hosts/python/.venv/bin/python"), str(ROOT / "tests/soak/loop_python.py")],
    "node": ["node", str(ROOT / "tests/soak/loop_node.mjs")],
    "go": [str(ROOT / "hosts/go/bin/qrglue-soak")],
    # The JVM's flags as hosts/java/server/serve.sh gives the servers; the jars `just build-java` leaves (never target/classes: hosts/java/pom.xml).
    "java": ["bash", "-c", 'exec "$(bash tools/java/jdk.sh)/bin/java" "$@"', "java", "-XX:-DontCompileHugeMethods", "--enable-native-access=ALL-UNNAMED",
             "-Xms32m", "-Xmx512m", "-XX:TrimNativeHeapInterval=10000",
             f"-Dqrglue.repo={ROOT}", "-cp", ":".join(str(ROOT / "hosts/java" / p) for p in
                                                    ("target/qrglue.jar", "target/qrglue-tests.jar", "target/test-lib/*")),
             "dev.qrglue.SoakLoop"],
}


def children() -> dict[int, list[int]]:
    """Every process's children, from one pass over /proc (http_bench's
    process_tree makes a pass per tree; here ~40 trees are sampled a second)."""
    tree: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                stat = Path(f"/proc/{entry.name}/stat").read_text()
            except OSError:
                continue
            tree.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(int(entry.name))
    return tree


def descendants(root: int, tree: dict[int, list[int]]) -> list[int]:
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(tree.get(pid, []))
    return out


def fds(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            total += len(os.listdir(f"/proc/{pid}/fd"))
        except OSError:
            pass
    return total


class Sampler:
    """Every second: RSS and descriptors of each watched process tree."""

    def __init__(self) -> None:
        self.series: dict[str, list[tuple[float, int, int]]] = {}
        self.pids: dict[str, int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self.t0 = time.monotonic()

    def watch(self, name: str, pid: int) -> None:
        self.pids[name] = pid
        self.series[name] = []

    def _run(self) -> None:
        while not self._stop.is_set():
            now = time.monotonic() - self.t0
            family = children()
            for name, pid in list(self.pids.items()):
                tree = descendants(pid, family)
                self.series[name].append((now, rss_bytes(tree), fds(tree)))
            self._stop.wait(1.0)

    def __enter__(self) -> Sampler:
        self.t0 = time.monotonic()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def verdict(samples: list[tuple[float, int, int]], warmup: float, descriptors: bool) -> dict:
    if not samples:
        return {"ok": False, "why": "no samples"}
    warm = [s for s in samples if s[0] <= warmup] or samples[:1]
    after = [s for s in samples if s[0] > warmup]
    if len(after) < 10:
        return {"ok": False, "why": f"only {len(after)} samples after warm-up"}
    warm_rss = max(s[1] for s in warm)
    end_rss = int(statistics.median(s[1] for s in after[-10:]))
    rss_bound = max(RSS_BOUND_MIB << 20, int(warm_rss * RSS_BOUND_FRACTION))
    row = {"rss_start": samples[0][1], "rss_warm": warm_rss, "rss_end": end_rss, "rss_max": max(s[1] for s in samples),
           "rss_bound": rss_bound, "fds_start": samples[0][2], "fds_warm": max(s[2] for s in warm),
           "fds_end": int(statistics.median(s[2] for s in after[-10:])), "samples": len(samples)}
    why = []
    if end_rss > warm_rss + rss_bound:
        why.append(f"RSS grew {(end_rss - warm_rss) >> 20} MiB after warm-up (bound {rss_bound >> 20} MiB)")
    if descriptors and row["fds_end"] > row["fds_warm"] + FD_BOUND:
        why.append(f"descriptors grew {row['fds_warm']} -> {row['fds_end']} (bound +{FD_BOUND})")
    row["ok"], row["why"] = not why, "; ".join(why)
    return row


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--vegeta", required=True)
    parser.add_argument("--minutes", type=float, required=True)
    parser.add_argument("--rate", type=int, default=5, help="requests per second per server tier")
    parser.add_argument("--inproc-rate", type=int, default=200, help="calls per second per in-process loop")
    parser.add_argument("--only", nargs="*", help="HOST/TIER (servers) or HOST (in-process loops) to run")
    parser.add_argument("--exclude", nargs="*", default=[], help="HOST or HOST/TIER to leave out")
    parser.add_argument("--no-inproc", action="store_true")
    parser.add_argument("--out", default="soak", help="name of the report under target/soak (and its work folder)")
    args = parser.parse_args()
    seconds = args.minutes * 60
    warmup = max(10.0, seconds / 5)
    work = OUT / f"{args.out}-work"
    work.mkdir(parents=True, exist_ok=True)
    text, golden = reference()
    target = "/qrcode?" + urllib.parse.urlencode({"text": text})
    tiers = [(h, t) for h, ts in TIERS.items() for t in ts if (not args.only or f"{h}/{t}" in args.only)
             and h not in args.exclude and f"{h}/{t}" not in args.exclude]
    loops = [] if args.no_inproc else [h for h in INPROC if (not args.only or h in args.only) and h not in args.exclude]

    servers: dict[str, subprocess.Popen[bytes]] = {}
    attacks: dict[str, subprocess.Popen[bytes]] = {}
    runs: dict[str, subprocess.Popen[bytes]] = {}
    failures: list[str] = []
    rows: dict[str, dict] = {}
    sampler = Sampler()
    try:
        for host, tier in tiers:
            name = f"{host}/{tier}"
            port = free_port()
            servers[name] = start(host, tier, port, work / f"{host}-{tier}.log")
            status, body = get(port, target)
            if status != 200 or (tier not in PEER_TIERS and hashlib.sha256(body).hexdigest() != golden):
                failures.append(f"{name}: first answer {status}, not the golden PNG")
            (work / f"{host}-{tier}.targets").write_text(f"GET http://127.0.0.1:{port}{target}\n")
        with sampler:
            for host, tier in tiers:
                name = f"{host}/{tier}"
                sampler.watch(name, servers[name].pid)
                # A fixed rate (not as fast as possible): a soak looks for
                # growth per request over time, on a shared machine.
                attacks[name] = subprocess.Popen(
                    [args.vegeta, "attack", f"-targets={work / f'{host}-{tier}.targets'}", f"-rate={args.rate}/1s",
                     f"-duration={seconds}s", "-timeout=10s", "-keepalive=true", "-max-workers=4", "-connections=4",
                     f"-output={work / f'{host}-{tier}.bin'}"],
                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
            for host in loops:
                runs[host] = subprocess.Popen([*INPROC[host], str(seconds), str(args.inproc_rate)], cwd=ROOT,
                                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                sampler.watch(f"{host} (in-process)", runs[host].pid)
            deadline = time.monotonic() + seconds + 60
            for name, attack in attacks.items():
                if attack.wait(timeout=max(1, deadline - time.monotonic())) != 0:
                    failures.append(f"{name}: vegeta exited {attack.returncode}")
            for host, run in runs.items():
                out, err = run.communicate(timeout=max(1, deadline - time.monotonic()))
                if run.returncode != 0:
                    failures.append(f"{host} (in-process): exited {run.returncode}: {err.strip()[-500:]}")
    finally:
        for process in [*attacks.values(), *runs.values()]:
            if process.poll() is None:
                process.kill()
                process.wait()
        for process in servers.values():
            stop(process)

    for name in attacks:
        host, tier = name.split("/")
        report = json.loads(subprocess.run([args.vegeta, "report", "-type=json", str(work / f"{host}-{tier}.bin")],
                                           capture_output=True, check=True, text=True).stdout)
        ok = int(report.get("status_codes", {}).get("200", 0))
        if ok != report["requests"]:
            failures.append(f"{name}: {report['requests'] - ok} of {report['requests']} requests not 200 "
                            f"({report.get('status_codes')}, {report.get('errors', [])[:3]})")
        rows[name] = {"requests": report["requests"], **verdict(sampler.series[name], warmup, descriptors=True)}
    for host in runs:
        rows[f"{host} (in-process)"] = verdict(sampler.series[f"{host} (in-process)"], warmup, descriptors=False)
    for name, row in rows.items():
        if not row["ok"]:
            failures.append(f"{name}: {row['why']}")

    (OUT / f"{args.out}.json").write_text(json.dumps({
        "minutes": args.minutes, "rate_per_tier": args.rate, "inproc_rate": args.inproc_rate, "warmup_seconds": warmup,
        "bounds": {"rss_mib": RSS_BOUND_MIB, "rss_fraction": RSS_BOUND_FRACTION, "fds": FD_BOUND},
        "rows": rows, "series": sampler.series}, indent=1))
    mib = lambda b: f"{b / 1048576:.1f}"  # noqa: E731
    print(f"soak: {args.minutes:g} min, {args.rate} req/s per tier, {args.inproc_rate} calls/s per loop, warm-up {warmup:.0f} s")
    print("| process | requests | RSS start | after warm-up | end (MiB) | fds start | after warm-up | end |")
    print("|---|---|---|---|---|---|---|---|")
    for name, row in rows.items():
        if "rss_start" in row:
            print(f"| {name} | {row.get('requests', '')} | {mib(row['rss_start'])} | {mib(row['rss_warm'])} | {mib(row['rss_end'])} "
                  f"| {row['fds_start']} | {row['fds_warm']} | {row['fds_end']} |")
    for failure in failures:
        print(f"soak: FAIL {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
