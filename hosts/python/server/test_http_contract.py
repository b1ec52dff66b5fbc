"""The query grammar's shared cases (tests/http/query_cases.json), run against
this server's own parser: the same cases guest/http-query (cargo test) and
hosts/node/server/contract.test.mjs run against theirs. (Request targets are
httptools' to split here: tests/http covers them over HTTP.)"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from http_contract import HttpError, check_query, method_class

CASES = json.loads((Path(__file__).resolve().parents[3] / "tests" / "http" / "query_cases.json").read_text("utf-8"))
API_NAMES = {"ec-level": "ec_level", "min-size": "min_size", "quiet-zone": "quiet_zone"}


@pytest.mark.parametrize("case", CASES["queries"], ids=lambda case: case["query"][:60])
def test_shared_query_case(case: dict[str, Any]) -> None:
    query = case["query"].encode("ascii")
    if "refused" in case:
        with pytest.raises(HttpError) as info:
            check_query(query)
        assert {"kind": info.value.kind, "message": info.value.message} == case["refused"]
        return
    got = check_query(query)
    if case.get("empty"):
        assert got.text == ""
        return
    want = dict(case["request"])
    text = want.pop("text")
    assert (got.text, got.options) == (text, {API_NAMES[name]: value for name, value in want.items()})


def test_shared_methods() -> None:
    assert len(CASES["queries"]) >= 80
    for kind, methods in CASES["methods"].items():
        for method in methods:
            assert method_class(method) == kind, method
