"""Conformance runner of the Python host's extra paths (tests/conformance/README.md):
every case of the corpus through qrglue.extism (guest/extism on Extism's
Python SDK) and qrglue.wasm3 (the raw glue on the wasm3 interpreter),
printed as {"paths": {"python-extism": {id: outcome}, "python-wasm3": {...}}},
with the same outcome function as conformance/runner.py. A runner of its own
so that their packages (extism, pywasm3) stay optional dependencies.

    hosts/python/.venv/bin/python hosts/python/conformance/extra.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import qrglue.extism
import qrglue.wasm3

# The corpus loader is the test suite's (tests/support/corpus.py).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))
from corpus import load_cases, outcome


def main() -> int:
    cases = load_cases()
    results = {}
    for path, make in {"python-extism": qrglue.extism.Generator, "python-wasm3": qrglue.wasm3.Generator}.items():
        gen = make()
        results[path] = {case["id"]: outcome(gen, case) for case in cases}
    json.dump({"paths": results}, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
