"""Conformance runner for the Python host (tests/conformance/README.md).

Renders every case of the corpus ($QRGLUE_VECTORS_DIR, else tests/vectors) on
each path through the public API (png, svg, matrix, text in every style) and
prints one JSON object on stdout:
{"paths": {"python-component": {id: outcome}, "python-raw": {...}, "python-native": {...}}}.
python-component is the default component Generator (the fast glue on the
pinned wasmtime-py); python-native is the PyO3 extension (qrglue.native),
which `just build-python` builds. A `data_hex` case's payload is passed as
`bytes` (the same functions: a bytes-like input goes to the guests'
`*-bytes` generators). Exit 0 whenever every case got an outcome.

    hosts/python/.venv/bin/python hosts/python/conformance/runner.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import qrglue
import qrglue.native
import qrglue.raw

# The corpus loader is the test suite's (tests/support/corpus.py), as Node's runner
# imports tests/support/corpus.js: one loader and one outcome function.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))
from corpus import load_cases, outcome

PATHS: dict[str, type[qrglue.Generator | qrglue.raw.Generator | qrglue.native.Generator]] = {
    "python-component": qrglue.Generator, "python-raw": qrglue.raw.Generator,
    "python-native": qrglue.native.Generator}


def main() -> int:
    cases = load_cases()
    results = {}
    for path, make_generator in PATHS.items():
        gen = make_generator()
        results[path] = {case["id"]: outcome(gen, case) for case in cases}
    json.dump({"paths": results}, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
