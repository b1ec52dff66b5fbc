"""Where a wasi:http request's server time goes in qrglue-wasi-http (issue 23
item 2): the server's own per-step timings (`--timings`) under vegeta, for a
fresh instance per request, a reused instance and the static component.

    python3 experiments/wasi-http/steps.py --vegeta PATH [--seconds 10] [--rounds 3]

Needs `just build-http-wasi-http` and vegeta (`just bench-http`
installs it). Server on CPU 0 with one tokio worker, vegeta on CPU 1 with 50
connections, as `just bench-http` does; the modes are interleaved round by
round and each figure is given as the median of the rounds with its range.
Loopback only; every run stops by itself. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import signal
import socket
import statistics
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "target/host/qrglue-wasi-http"
WASM = ROOT / "target/wasm"
MODES = {
    "fresh": ["qrglue.http.wasm"],
    "fresh, no PAGEMAP_SCAN": ["--no-pagemap-scan", "qrglue.http.wasm"],
    "reuse": ["--max-instance-reuse-count", "10000", "qrglue.http.wasm"],
    "static (fresh)": ["qrglue.http-static.wasm"],
}
TARGET = "/qrcode?text=https%3A%2F%2Fwww.reddit.com%2Fr%2Frustjerk%2Ftop%2F%3Ft%3Dall"
STEPS = ["instantiate", "resources", "call-to-head", "call", "teardown"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run(vegeta: str, mode: str, seconds: float, work: Path) -> dict:
    port = free_port()
    *flags, wasm = MODES[mode]
    server = subprocess.Popen(["taskset", "-c", "0", str(SERVER), "--port", str(port), "--workers", "1", "--timings",
                               *flags, str(WASM / wasm)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).read()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError(f"{mode}: the server did not start") from None
                time.sleep(0.1)
        targets = work / "targets.txt"
        targets.write_text(f"GET http://127.0.0.1:{port}{TARGET}\n")
        results = work / "results.bin"
        with results.open("wb") as out:
            subprocess.run(["taskset", "-c", "1", vegeta, "attack", f"-targets={targets}", "-rate=0", "-workers=50",
                            "-max-workers=50", "-connections=50", f"-duration={seconds}s", "-timeout=10s"],
                           stdout=out, check=True)
        report = json.loads(subprocess.run([vegeta, "report", "-type=json", str(results)], capture_output=True,
                                           check=True, text=True).stdout)
    finally:
        server.send_signal(signal.SIGTERM)
        stdout, _ = server.communicate(timeout=30)
    timings = next(json.loads(line)["timings"] for line in stdout.splitlines() if line.startswith('{"timings"'))
    return {"req_per_s": report["throughput"], "ok": report["status_codes"].get("200", 0) == report["requests"],
            **{step: timings[step]["mean_us"] for step in STEPS}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vegeta", required=True)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    rows: dict[str, list[dict]] = {mode: [] for mode in MODES}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.rounds):
            for mode in MODES:
                rows[mode].append(run(args.vegeta, mode, args.seconds, Path(tmp)))
    print(f"| mode | req/s | {' | '.join(f'{s} (us)' for s in STEPS)} |")
    print("|---" * (len(STEPS) + 2) + "|")
    for mode, runs in rows.items():
        assert all(r["ok"] for r in runs), f"{mode}: non-200 answers"

        def cell(key: str, digits: int) -> str:
            values = [r[key] for r in runs]
            return f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}–{max(values):.{digits}f})"

        print(f"| {mode} | {cell('req_per_s', 0)} | {' | '.join(cell(s, 1) for s in STEPS)} |")


if __name__ == "__main__":
    main()
