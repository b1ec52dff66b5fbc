"""Bounded memory under a long run: N `png` calls on one path, cycling the ten
reference texts, every result compared with its golden bytes. Prints, as
JSON, the guest's linear memory (memory_pages probe) and this process's RSS
at start, after warm-up and after the run. test_limits.py runs it in a
fresh interpreter, so nothing else in the test process moves RSS.

The native path has no guest memory: its pages are reported as 0.

Usage: soak_check.py component|raw|native|component-stock CALLS
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable

import qrglue
import qrglue.native
import qrglue.raw
from corpus import case_options, case_text, load_cases, load_expected, sha256

WARM_UP_CALLS = 2_000
# component-stock (wasmtime-py's own conversion, which leaks ~50 B per call)
# is not run by the tests; it shows by hand that the RSS bound can fail.
GENERATORS: dict[str, Callable[[], qrglue.Generator | qrglue.raw.Generator | qrglue.native.Generator]] = {
              "component": qrglue.Generator, "raw": qrglue.raw.Generator, "native": qrglue.native.Generator,
              "component-stock": lambda: qrglue.Generator(glue="stock")}


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def main() -> None:
    path, calls = sys.argv[1], int(sys.argv[2])
    gen = GENERATORS[path]()
    memory_pages: Callable[[], int] = getattr(gen, "memory_pages", lambda: 0)
    cases, expected = load_cases(), load_expected()
    references = [next(c for c in cases if c["id"] == f"ref-{i:02d}") for i in range(1, 11)]
    jobs = [(case_text(c), case_options(c)) for c in references]

    pages_start = memory_pages()
    # The first result of each text must be golden; later ones must equal it.
    golden = []
    for case, (text, options) in zip(references, jobs, strict=True):
        png = gen.png(text, **options)
        if sha256(png) != expected[case["id"]]["png_sha256"]:
            raise SystemExit(f"{path}: {case['id']} does not match its golden digest")
        golden.append(png)
    for i in range(WARM_UP_CALLS):  # allocator pools, caches, guest heap
        text, options = jobs[i % len(jobs)]
        gen.png(text, **options)
    pages_warm, rss_warm = memory_pages(), rss_bytes()

    mismatches = 0
    for i in range(calls):
        text, options = jobs[i % len(jobs)]
        if gen.png(text, **options) != golden[i % len(jobs)]:
            mismatches += 1
    pages_after, rss_after = memory_pages(), rss_bytes()

    print(json.dumps({"path": path, "calls": calls, "mismatches": mismatches,
                      "pages_start": pages_start, "pages_warm": pages_warm, "pages_after": pages_after,
                      "rss_warm": rss_warm, "rss_after": rss_after}))


if __name__ == "__main__":
    main()
