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
from conftest import CASES, EXPECTED, REFERENCE_CASES, REFERENCE_URL_CASE, WASM_PATHS
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


# --- misuse of the library: lying subclasses, two threads in one Generator,
# failures that are not the contract's ---------------------------------------


class LyingStr(str):
    """A str whose every overridable method lies about its contents."""

    def encode(self, *args: Any, **kwargs: Any) -> bytes:
        return b"x" * 10_000_000

    def __len__(self) -> int:
        return 1

    def __str__(self) -> str:
        return "something else"

    def __repr__(self) -> str:
        return "'low'"

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return hash("low")

    def __iter__(self) -> Any:
        return iter("lies")

    def __getitem__(self, index: Any) -> str:
        return "x"


class LyingInt(int):
    """An int whose comparisons, conversions and repr lie."""

    def __index__(self) -> int:
        return 2**40

    def __int__(self) -> int:
        return 5

    def __le__(self, other: object) -> bool:
        return True

    def __ge__(self, other: object) -> bool:
        return True

    def __lt__(self, other: object) -> bool:
        return True

    def __repr__(self) -> str:
        return "5"


class LyingBytes(bytes):
    def __len__(self) -> int:
        return 1 << 30

    def __bytes__(self) -> bytes:
        return b""


def _outcome(render: Callable[..., Any], args: tuple[Any, ...], options: dict[str, Any]) -> Any:
    try:
        return ("ok", render(*args, **options))
    except QrError as e:
        return ("error", e.kind, str(e))


def test_lying_subclasses_get_the_plain_result(gen: Any) -> None:
    # Each call with lying values must give exactly what the plain values give.
    long_text = "é" * 4000  # 8,000 UTF-8 bytes: data-too-long whatever __len__ says
    cases: list[tuple[tuple[Any, ...], dict[str, Any], tuple[Any, ...], dict[str, Any]]] = [
        ((LyingStr("hello"),), {}, ("hello",), {}),
        ((LyingStr("こんにちは 世界"),), {"ec_level": LyingStr("high")}, ("こんにちは 世界",), {"ec_level": "high"}),
        ((LyingStr(long_text),), {}, (long_text,), {}),
        ((LyingStr(""),), {}, ("",), {}),
        ((LyingStr("\ud800"),), {}, ("\ud800",), {}),
        (("hi",), {"ec_level": LyingStr("bogus")}, ("hi",), {"ec_level": "bogus"}),
        (("hi",), {"min_size": LyingInt(300), "quiet_zone": LyingInt(2)}, ("hi",), {"min_size": 300, "quiet_zone": 2}),
        (("hi",), {"min_size": LyingInt(5000)}, ("hi",), {"min_size": 5000}),
        (("hi",), {"quiet_zone": LyingInt(-1)}, ("hi",), {"quiet_zone": -1}),
    ]
    for lying_args, lying_options, plain_args, plain_options in cases:
        for render in (gen.png, gen.svg):
            expected = _outcome(render, plain_args, plain_options)
            assert _outcome(render, lying_args, lying_options) == expected, (plain_args, plain_options)
    # The probes that take a count or bytes.
    assert gen.png_repeat(LyingStr("hi"), LyingInt(2)) == gen.png_repeat("hi", 2)
    assert gen.consume(LyingBytes(b"abc")) == 3
    assert gen.produce(LyingInt(7)) == bytes(range(7))


@pytest.mark.parametrize("path", sorted(WASM_PATHS))
def test_a_generator_refuses_a_second_thread_and_never_crashes(path: str) -> None:
    # In a child process, so that a crash (a double free) fails the test
    # rather than the test run. One thread holds the Generator inside a long
    # png_repeat while the other calls it: GeneratorInUse, then both threads
    # hammer the same Generator: every call is golden or GeneratorInUse.
    script = f"""
import hashlib, json, sys, threading
sys.path.insert(0, {str(Path(__file__).parent)!r})
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


@pytest.mark.parametrize("path", sorted(WASM_PATHS))
@pytest.mark.parametrize("failure", [MemoryError, KeyboardInterrupt, TypeError])
def test_a_failure_that_is_not_the_contracts_retires_the_instance(path: str, failure: type[BaseException]) -> None:
    # A failure raised inside a call (here injected into the glue after the
    # guest has run: an allocation failure, an interrupt, a glue bug) leaves
    # the instance in an unknown state: the next call must run on a new one,
    # as the Rust host does. A QrError must not cost an instance.
    gen = WASM_PATHS[path]()
    text = case_text(REFERENCE_URL_CASE)
    golden = EXPECTED[REFERENCE_URL_CASE["id"]]["png_sha256"]
    with pytest.raises(QrError):
        gen.png("")
    assert gen.instances == 1
    calls = gen._calls
    real_png = calls.png

    def failing_png(*args: Any) -> bytes:
        real_png(*args)
        raise failure("injected")

    calls.png = failing_png
    with pytest.raises(failure, match="injected"):
        gen.png(text)
    assert sha256(gen.png(text)) == golden
    assert gen.instances == 2 and gen._calls is not calls
    with pytest.raises(qrglue.GuestTrap):
        gen.trap()
    assert sha256(gen.png(text)) == golden and gen.instances == 3
