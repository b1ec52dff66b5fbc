"""Conformance runner of the Python Extism path (tests/conformance/README.md):
every case of the corpus through qrglue.extism (guest/extism on Extism's
Python SDK), printed as {"paths": {"python-extism": {id: outcome}}}, with the
same outcome function as conformance_runner.py. A runner of its own so that
the Extism SDK stays an optional dependency of the package.

    hosts/python/.venv/bin/python hosts/python/conformance_extism.py
"""

from __future__ import annotations

import json
import sys

import qrglue.extism
from corpus import load_cases, outcome


def main() -> int:
    gen = qrglue.extism.Generator()
    results = {case["id"]: outcome(gen, case) for case in load_cases()}
    json.dump({"paths": {"python-extism": results}}, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
