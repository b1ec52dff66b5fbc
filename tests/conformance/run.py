"""Run every host's conformance runner and diff every path.

Usage: python3 tests/conformance/run.py [--vectors DIR] [--no-expected] [--json OUT]

Each runner (tests/conformance/README.md) prints {"paths": {path: {id: outcome}}}.
This script fails (exit 1) if any path misses a case, differs from
expected.json, or differs from another path, and prints a readable diff:
one line per (case, path) that is off, grouped by case.
Standard library only, so it runs before any venv exists.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PATHS = ["rust-native", "rust-component", "rust-raw", "rust-raw-nosimd", "node-component", "node-raw", "node-native", "node-bindgen", "node-extism",
         "python-component", "python-raw", "python-native", "python-extism", "python-wasm3", "go-raw", "go-native", "go-wasmtime", "go-extism",
         "go-wasmer-cranelift", "go-wasmer-singlepass", "java-compiled", "java-interpreted",
         "java-native", "java-extism"]
RUNNERS = {
    # First: the JVM runner is the longest (its four paths, Chicory's interpreter among them), so it
    # starts at once beside the others rather than last. hosts/java's jar and test classes, built by
    # `just build-java`.
    "java": ["bash", "hosts/java/conformance.sh"],
    # hosts/rust/conformance, built by build_rust_runner.
    "rust": [str(REPO / "target" / "host" / "qrglue-conformance")],
    "node": ["node", "hosts/node/conformance/runner.mjs"],
    # hosts/node/extism: guest/extism through @extism/extism (its own package, installed by `just build-node`).
    "node-extism": ["node", "hosts/node/extism/runner.mjs"],
    "python": ["hosts/python/.venv/bin/python", "hosts/python/conformance/runner.py"],
    # qrglue.extism (guest/extism through Extism's Python SDK) and qrglue.wasm3 (the raw glue on wasm3).
    "python-extra": ["hosts/python/.venv/bin/python", "hosts/python/conformance/extra.py"],
    # hosts/go/cmd/qrglue-conformance, built by `just build-go`.
    "go": [str(REPO / "hosts" / "go" / "bin" / "qrglue-conformance")],
    # hosts/go/wasmtime's runner (the same glue on Wasmtime), built by `just build-go`.
    "go-wasmtime": [str(REPO / "hosts" / "go" / "bin" / "qrglue-conformance-wasmtime")],
    # hosts/go/extism's runner (the Extism plug-in guest/extism through the Go SDK), built by `just build-go`.
    "go-extism": [str(REPO / "hosts" / "go" / "bin" / "qrglue-conformance-extism")],
    # hosts/go/wasmer's runner (the same glue on Wasmer 2.0's two compilers, qrglue.raw-nosimd.wasm), built by `just build-go`.
    "go-wasmer": [str(REPO / "hosts" / "go" / "bin" / "qrglue-conformance-wasmer")],
}


@functools.cache
def build_rust_runner() -> None:
    """`cargo build --profile host` of the default members, as the justfile's
    _build-rust-bins does, not `cargo run -p qrglue-conformance`: cargo unifies
    features over the packages it builds, and another set of packages would
    compile wasmtime a second time."""
    subprocess.run(["cargo", "build", "--locked", "--profile", "host", "-q"], cwd=REPO, check=True)


def run_runners(vectors: Path) -> dict[str, dict]:
    build_rust_runner()
    env = {**os.environ, "QRGLUE_VECTORS_DIR": str(vectors)}

    def run_one(host: str, command: list[str]) -> tuple[subprocess.CompletedProcess[str], float]:
        start = time.monotonic()
        return subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True), time.monotonic() - start

    # Two runners at a time (the CI machine's 2 cores): each is one process with a start-up
    # (a JVM, Node, wasm compiles) and mostly one busy thread, so one alone leaves a core idle.
    # Every runner gets the whole corpus as before; results are read in RUNNERS' order.
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {host: pool.submit(run_one, host, command) for host, command in RUNNERS.items()}
        results: dict[str, dict] = {}
        for host, future in futures.items():
            proc, seconds = future.result()
            if proc.returncode != 0:
                sys.stderr.write(proc.stderr[-4000:])
                raise SystemExit(f"conformance: the {host} runner failed (exit {proc.returncode}): {' '.join(RUNNERS[host])}")
            paths = json.loads(proc.stdout)["paths"]
            results.update(paths)
            counts = ", ".join(f"{p} {len(r)}" for p, r in paths.items())
            print(f"conformance: {host} runner: {counts} cases in {seconds:.1f} s", file=sys.stderr)
    return results


def describe(outcome) -> str:
    if outcome is None:
        return "(no result)"
    if "error" in outcome:
        return f"error {outcome['error']}: {outcome.get('message')!r}"
    texts = ", ".join(f"{style} {digest[:8]}.." for style, digest in (outcome.get("text_sha256") or {}).items())
    return (f"png {outcome['png_sha256'][:12]}.. ({outcome['png_bytes']} B), svg {outcome['svg_sha256'][:12]}.., "
            f"matrix {str(outcome.get('matrix_sha256'))[:12]}.., text {texts or None}")


def compare(case_ids: list[str], results: dict[str, dict], expected: dict | None,
            paths: list[str] | None = None) -> list[str]:
    """Readable differences; empty when every path (of `paths`, default PATHS) agrees (with expected.json too)."""
    paths = PATHS if paths is None else paths
    problems = []
    missing_paths = [p for p in paths if p not in results]
    if missing_paths:
        problems.append(f"paths with no results at all: {', '.join(missing_paths)}")
    for case_id in case_ids:
        outcomes = {p: results.get(p, {}).get(case_id) for p in paths}
        want = expected.get(case_id) if expected is not None else None
        if expected is not None and want is None:
            problems.append(f"{case_id}: no entry in expected.json")
            continue
        reference = want if want is not None else outcomes["rust-native"]
        off = {p: o for p, o in outcomes.items() if o != reference}
        if off:
            lines = [f"{case_id}: expected {describe(reference)}"]
            lines += [f"    {p:<17} {describe(o)}" for p, o in off.items()]
            problems.append("\n".join(lines))
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vectors", type=Path, default=REPO / "tests" / "vectors", help="corpus folder (cases.json, expected.json)")
    parser.add_argument("--no-expected", action="store_true", help="only compare paths with each other (fuzz corpora)")
    args = parser.parse_args()
    cases = json.loads((args.vectors / "cases.json").read_text())["cases"]
    expected = None if args.no_expected else json.loads((args.vectors / "expected.json").read_text())
    ids = [c["id"] for c in cases]
    results = run_runners(args.vectors)
    problems = compare(ids, results, expected)
    if problems:
        print(f"conformance: {len(problems)} case(s) differ:\n" + "\n".join(problems))
        print(f"conformance: 0 passed, {len(problems)} failed")
        return 1
    print(f"conformance: {len(ids)} cases x {len(PATHS)} paths identical" + ("" if expected is None else " and equal to expected.json"))
    print(f"conformance: {len(ids) * len(PATHS)} passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
