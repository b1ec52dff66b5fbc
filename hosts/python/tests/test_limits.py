"""Bounded resources: long texts and binary payloads refused before guest
memory grows, the memory probe follows growth, 100,000 calls keep guest
memory and RSS flat."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import qrglue
import qrglue.native
import qrglue.raw
from conftest import EXPECTED, REFERENCE_URL_CASE
from corpus import sha256
from qrglue import QrError

HOST_DIR = Path(__file__).resolve().parents[1]
REFERENCE_URL: str = REFERENCE_URL_CASE["text"]


# Every text here is refused on the host before any byte enters the guest.
LONG_TEXTS: list[tuple[str, Callable[[], str], str]] = [
    ("7090 bytes", lambda: "x" * 7090, "data-too-long"),
    ("1 MB", lambda: "a" * 1_000_000, "data-too-long"),
    ("1 MB of 2-byte chars", lambda: "é" * 500_000, "data-too-long"),
    ("50 MB", lambda: "z" * 50_000_000, "data-too-long"),
    ("1 MB lone surrogates", lambda: "\ud800" * 1_000_000, "invalid-text"),
]


SOAK_CALLS = 100_000


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


def test_payloads_of_7090_bytes_1_mb_and_50_mb_are_data_too_long_and_guest_memory_stays_the_same(
        wasm_gen: Any, request: pytest.FixtureRequest, hardening_report: list[str]) -> None:
    # A payload over 7089 bytes is refused by its length before it is copied:
    # guest memory stays the same, whatever its size and its bytes-like type.
    gen = wasm_gen
    assert sha256(gen.png(REFERENCE_URL.encode())) == EXPECTED["ref-02"]["png_sha256"]  # settle a normal call first
    pages_before = gen.memory_pages()
    big = bytearray(b"7" * 50_000_000)
    oversized: list[tuple[str, Any]] = [
        ("7090 bytes", b"\xff" * 7090),
        ("1 MB", bytes(1_000_000)),
        ("1 MB as a bytearray", big[:1_000_000]),
        ("1 MB as a memoryview", memoryview(big)[7:1_000_007]),
        ("1 MB as a 2-D memoryview", memoryview(bytes(1_000_000)).cast("B", (1000, 1000))),
        ("50 MB", big),
    ]
    for label, data in oversized:
        for render in (gen.png, gen.svg, gen.matrix, gen.text, gen.png_data_uri):
            with pytest.raises(QrError) as info:
                render(data)
            assert info.value.kind == "data-too-long", label
        assert gen.memory_pages() == pages_before, f"{label}: guest memory grew"
    pages_after = gen.memory_pages()
    labels = ", ".join(label for label, _ in oversized)
    del oversized, data  # the test's own view of `big` ...
    big.extend(b"7")  # ... was the last: the calls left none behind
    # 7089 bytes are the guest's to look at (a code of 7089 digits exists).
    assert sha256(gen.png(big[:7089])) == EXPECTED["max-numeric-low"]["png_sha256"]
    hardening_report.append(f"python-{request.node.callspec.params['wasm_gen']}: long payloads ({labels}): "
                            f"guest memory {pages_before} -> {pages_after} pages")


@pytest.mark.parametrize("path", ["component", "raw"])
def test_memory_probe_sees_growth(path: str) -> None:
    # The control for the test above: 1 MiB that does enter the guest grows
    # its memory, so "pages unchanged" is a real observation.
    gen = qrglue.Generator() if path == "component" else qrglue.raw.Generator()
    pages_before = gen.memory_pages()
    assert gen.consume(bytes(1 << 20)) == 1 << 20
    assert gen.memory_pages() >= pages_before + 16


@pytest.mark.slow
@pytest.mark.parametrize("path", ["component", "raw", "native"])
def test_100k_png_calls_keep_guest_memory_and_rss_flat(path: str, hardening_report: list[str]) -> None:
    support = str(HOST_DIR / "tests" / "support")  # corpus.py, which soak_check.py imports
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [support, os.environ.get("PYTHONPATH")]))}
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
