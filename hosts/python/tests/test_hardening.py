"""Hardening, on both paths: no aliasing, bounded guest memory and flat RSS over
100,000 calls, long texts refused without touching guest memory, and
correct results from 4 threads at once. (Trap recovery: test_conformance.py.)"""

from __future__ import annotations

import json
import os
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
from conftest import CASES, EXPECTED, REFERENCE_CASES, REFERENCE_URL_CASE
from corpus import case_options, case_text, sha256
from qrglue import QrError

HOST_DIR = Path(__file__).resolve().parents[1]

# Per path: the module-level functions (one instance per thread inside) and
# the explicit Generator class.
MODULES = {"component": qrglue, "raw": qrglue.raw, "native": qrglue.native}


def test_result_unchanged_after_1000_later_calls(gen: Any) -> None:
    text, options = case_text(REFERENCE_URL_CASE), case_options(REFERENCE_URL_CASE)
    golden = EXPECTED[REFERENCE_URL_CASE["id"]]
    first_png, first_svg = gen.png(text, **options), gen.svg(text, **options)
    assert type(first_png) is bytes and type(first_svg) is str  # owned copies, not views
    # Later calls of other sizes reuse and grow the guest's buffers.
    for i in range(1000):
        later = REFERENCE_CASES[i % len(REFERENCE_CASES)]
        if i % 100 == 0:
            gen.png(case_text(later), min_size=1024)
        else:
            gen.png(case_text(later), **case_options(later))
    assert sha256(first_png) == golden["png_sha256"]
    assert sha256(first_svg.encode("utf-8")) == golden["svg_sha256"]


# Every text here is refused on the host before any byte enters the guest.
LONG_TEXTS: list[tuple[str, Callable[[], str], str]] = [
    ("7090 bytes", lambda: "x" * 7090, "data-too-long"),
    ("1 MB", lambda: "a" * 1_000_000, "data-too-long"),
    ("1 MB of 2-byte chars", lambda: "é" * 500_000, "data-too-long"),
    ("50 MB", lambda: "z" * 50_000_000, "data-too-long"),
    ("1 MB lone surrogates", lambda: "\ud800" * 1_000_000, "invalid-text"),
]


def test_long_texts_refused_without_growing_guest_memory(wasm_gen: Any, request: pytest.FixtureRequest,
                                                         hardening_report: list[str]) -> None:
    # The native path has no guest memory: test_native.py shows it makes no copy.
    gen = wasm_gen
    pages_before = gen.memory_pages()
    for label, make_text, kind in LONG_TEXTS:
        text = make_text()
        for render in (gen.png, gen.svg):
            with pytest.raises(QrError) as info:
                render(text)
            assert info.value.kind == kind, label
        del text
        assert gen.memory_pages() == pages_before, label
    labels = ", ".join(t[0] for t in LONG_TEXTS)
    hardening_report.append(f"python-{request.node.callspec.params['wasm_gen']}: long texts ({labels}): "
                            f"guest memory {pages_before} -> {gen.memory_pages()} pages")


@pytest.mark.parametrize("path", ["component", "raw"])
def test_memory_probe_sees_growth(path: str) -> None:
    # The control for the test above: 1 MiB that does enter the guest grows
    # its memory, so "pages unchanged" is a real observation.
    gen = qrglue.Generator() if path == "component" else qrglue.raw.Generator()
    pages_before = gen.memory_pages()
    assert gen.consume(bytes(1 << 20)) == 1 << 20
    assert gen.memory_pages() >= pages_before + 16


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


SOAK_CALLS = 100_000


@pytest.mark.slow
@pytest.mark.parametrize("path", ["component", "raw", "native"])
def test_100k_png_calls_keep_guest_memory_and_rss_flat(path: str, hardening_report: list[str]) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(HOST_DIR), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, str(Path(__file__).with_name("soak_check.py")), path, str(SOAK_CALLS)],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    rss_change = (report["rss_after"] - report["rss_warm"]) / report["rss_warm"]
    hardening_report.append(
        f"python-{path}: {report['calls']} png calls: guest memory {report['pages_start']} pages at start, "
        f"{report['pages_warm']} after warm-up, {report['pages_after']} after; "
        f"RSS {report['rss_warm'] // 1024} -> {report['rss_after'] // 1024} KiB ({rss_change:+.2%})")
    assert report["calls"] == SOAK_CALLS
    assert report["mismatches"] == 0
    assert report["pages_after"] <= report["pages_warm"] + 1
    assert abs(rss_change) <= 0.10
