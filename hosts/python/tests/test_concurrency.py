"""Threads: 4 x 2,500 calls per path all golden, and a Generator entered by a
second thread raises GeneratorInUse, never crashes."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import qrglue
import qrglue.native
import qrglue.raw
from conftest import CASES, EXPECTED, WASM_PATHS
from corpus import case_options, case_text, sha256

HOST_DIR = Path(__file__).resolve().parents[1]


# Per path: the module-level functions (one instance per thread inside) and
# the explicit Generator class.
MODULES = {"component": qrglue, "raw": qrglue.raw, "native": qrglue.native}


THREADS = 4


CALLS_PER_THREAD = 2_500


@pytest.mark.parametrize("path", ["component", "raw", "native"])
def test_concurrent_png_calls_match_golden(path: str, hardening_report: list[str]) -> None:
    # Every ref-* case that renders (reference texts, with and without options).
    jobs = [(case_text(c), case_options(c), EXPECTED[c["id"]]["png_sha256"])
            for c in CASES if c["id"].startswith("ref-") and "png_sha256" in EXPECTED[c["id"]]]
    start = threading.Barrier(THREADS)
    done: dict[int, int] = {}
    failures: list[Any] = []

    def work(index: int) -> None:
        try:
            # Half the threads use the module-level function (its per-thread
            # instance), half their own Generator.
            render: Callable[..., bytes] = (MODULES[path].png if index % 2 == 0
                                            else MODULES[path].Generator().png)
            start.wait()
            count = 0
            for i in range(CALLS_PER_THREAD):
                text, options, digest = jobs[(index * 7 + i) % len(jobs)]
                if sha256(render(text, **options)) != digest:
                    failures.append((index, i))
                count += 1
            done[index] = count
        except Exception as e:  # reported by the asserts below
            failures.append((index, repr(e)))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    assert sum(done.values()) == THREADS * CALLS_PER_THREAD
    hardening_report.append(f"python-{path}: {THREADS} threads x {CALLS_PER_THREAD} png calls = "
                            f"{sum(done.values())} calls, all golden ({len(jobs)} distinct cases)")


@pytest.mark.parametrize("path", sorted(WASM_PATHS))
def test_a_generator_refuses_a_second_thread_and_never_crashes(path: str) -> None:
    # In a child process, so that a crash (a double free) fails the test
    # rather than the test run. One thread holds the Generator inside a long
    # png_repeat while the other calls it: GeneratorInUse, then both threads
    # hammer the same Generator: every call is golden or GeneratorInUse.
    script = f"""
import hashlib, json, sys, threading
sys.path.insert(0, {str(Path(__file__).parent)!r})
sys.path.insert(0, {str(Path(__file__).parent / 'support')!r})
from conftest import WASM_PATHS, EXPECTED, REFERENCE_URL_CASE
from corpus import case_text
import qrglue
gen = WASM_PATHS[{path!r}]()
text = case_text(REFERENCE_URL_CASE)
golden = EXPECTED[REFERENCE_URL_CASE["id"]]["png_sha256"]
def long_call():
    # Until it gets in: the other thread's short calls may hold it first.
    while True:
        try:
            return gen.png_repeat(text, 50, min_size=4096)  # ~0.1 s inside the guest
        except qrglue.GeneratorInUse:
            pass
holder = threading.Thread(target=long_call)
holder.start()
refused = False
while holder.is_alive() and not refused:  # short calls until one meets the long one
    try:
        gen.png(text)
    except qrglue.GeneratorInUse as e:
        refused = "in use by another thread" in str(e)
holder.join()
counts = {{"golden": 0, "refused": 0, "wrong": 0}}
start = threading.Barrier(2)
def hammer():
    start.wait()
    for _ in range(3000):
        try:
            ok = hashlib.sha256(gen.png(text)).hexdigest() == golden
            counts["golden" if ok else "wrong"] += 1
        except qrglue.GeneratorInUse:
            counts["refused"] += 1
threads = [threading.Thread(target=hammer) for _ in range(2)]
for t in threads: t.start()
for t in threads: t.join()
after = hashlib.sha256(gen.png(text)).hexdigest() == golden
print(json.dumps({{"refused_while_inside": refused, **counts, "golden_after": after}}))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                          cwd=HOST_DIR)
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr[-2000:]}"
    report = json.loads(done.stdout)
    assert report["refused_while_inside"] is True
    assert report["wrong"] == 0 and report["golden"] + report["refused"] == 6000
    assert report["golden"] > 0 and report["golden_after"] is True
