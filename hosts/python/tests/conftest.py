"""Shared fixtures: the golden vectors and one generator per path."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List

import pytest

import qrglue
import qrglue.raw

REPO = Path(__file__).resolve().parents[3]
VECTORS = REPO / "tests" / "vectors"

CASES: List[Dict[str, Any]] = json.loads((VECTORS / "cases.json").read_text())["cases"]
EXPECTED: Dict[str, Dict[str, Any]] = json.loads((VECTORS / "expected.json").read_text())
REFERENCE_URL_CASE = next(c for c in CASES if c["id"] == "ref-02")

# The path name -> a factory for that path's Generator. "component" is the
# default (fast glue on the pinned wasmtime-py); "component-stock" is
# wasmtime-py's own conversion, kept equivalent by these same tests.
PATHS = {
    "component": qrglue.Generator,
    "component-stock": lambda: qrglue.Generator(glue="stock"),
    "raw": qrglue.raw.Generator,
}


def python_options(wit_options: Dict[str, Any]) -> Dict[str, Any]:
    """cases.json uses WIT names ("ec-level"); the Python API uses keywords."""
    return {name.replace("-", "_"): value for name, value in wit_options.items()}


@pytest.fixture(scope="module", params=sorted(PATHS))
def gen(request: pytest.FixtureRequest) -> Any:
    return PATHS[request.param]()
