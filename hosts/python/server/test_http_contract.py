"""The query grammar's shared cases (tests/http/query_cases.json), run against
this server's own parser: the same cases hosts/rust/http-query (cargo test) and
hosts/node/server/contract.test.mjs run against theirs. (Request targets are
httptools' to split here: tests/http covers them over HTTP.)"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import http_contract
import pytest
from http_contract import HttpError, check_query, check_ranges, method_class

ROOT = Path(__file__).resolve().parents[3]
CASES = json.loads((ROOT / "tests" / "http" / "query_cases.json").read_text("utf-8"))
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


def test_the_servers_copies_of_the_contract_equal_target_contract_json() -> None:
    # The copies this server keeps for the tiers with no qrglue library
    # (segno, static) equal the contract the build writes from
    # guest/core/src/contract.rs.
    contract = json.loads((ROOT / "target" / "contract.json").read_text("utf-8"))
    assert list(http_contract.EC_LEVELS) == contract["ec_levels"]
    assert http_contract.EMPTY_TEXT_MESSAGE == contract["messages"]["empty-text"]
    assert http_contract.LONE_SURROGATE_MESSAGE == contract["messages"]["lone-surrogate"]
    assert http_contract.NOT_UTF8_TEMPLATE == contract["messages"]["not-utf8"]
    defaults = contract["defaults"]
    assert check_ranges({}) == (defaults["ec-level"], defaults["min-size"], defaults["quiet-zone"])
    (min_low, min_high), (_, zone_high) = contract["bounds"]["min-size"], contract["bounds"]["quiet-zone"]
    template = contract["messages"]["out-of-range"]
    for options, option, value in [({"min_size": min_low - 1}, "min-size", min_low - 1),
                                   ({"min_size": min_high + 1}, "min-size", min_high + 1),
                                   ({"quiet_zone": zone_high + 1}, "quiet-zone", zone_high + 1)]:
        with pytest.raises(HttpError) as info:
            check_ranges(options)
        low, high = contract["bounds"][option]
        assert (info.value.kind, info.value.message) == (
            "invalid-options", template.format(option=option, min=low, max=high, value=value))
    assert check_ranges({"min_size": min_high, "quiet_zone": zone_high})[1:] == (min_high, zone_high)
