"""The query grammar's shared cases (tests/http/query_cases.json), run against
this server's own parser: the same cases guest/http-query (cargo test) and
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
API_NAMES = {"ec-level": "ec_level", "min-size": "min_size", "quiet-zone": "quiet_zone", "scale": "scale",
             "dark": "dark", "light": "light", "micro": "micro", "version": "version", "min-version": "min_version",
             "mask": "mask", "boost-ec": "boost_ec", "eci": "eci"}


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
    assert len(CASES["queries"]) >= 240
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
    for name in ("data-too-long", "out-of-range", "same-colors", "version-conflict", "micro-ec-level"):
        constant = {"data-too-long": "DATA_TOO_LONG_MESSAGE", "out-of-range": "OUT_OF_RANGE_TEMPLATE",
                    "same-colors": "SAME_COLORS_TEMPLATE", "version-conflict": "VERSION_CONFLICT_MESSAGE",
                    "micro-ec-level": "MICRO_EC_LEVEL_MESSAGE"}[name]
        assert getattr(http_contract, constant) == contract["messages"][name], name
    defaults = contract["defaults"]
    # The endpoint draws PNGs: text's style and the SVG options are not its parameters.
    not_parameters = ("text-style", "view-box-only", "title", "class")
    default_options = {API_NAMES[k]: v for k, v in defaults.items() if k not in not_parameters}
    assert check_ranges({}) == http_contract.Ranged(**default_options)
    bounds = contract["bounds"]
    template = contract["messages"]["out-of-range"]

    def fill(option: str, value: int, bounds_of: str | None = None) -> str:
        low, high = bounds[bounds_of or option]
        return str(template.format(option=option, min=low, max=high, value=value))

    same = contract["messages"]["same-colors"]
    (min_low, min_high), (_, zone_high) = bounds["min-size"], bounds["quiet-zone"]
    scale_low, scale_high = bounds["scale"]
    version_high, micro_version_high = bounds["version"][1], bounds["micro-version"][1]
    mask_high, micro_mask_high = bounds["mask"][1], bounds["micro-mask"][1]
    refusals: list[tuple[dict[str, object], str]] = [
        ({"min_size": min_low - 1}, fill("min-size", min_low - 1)),
        ({"min_size": min_high + 1}, fill("min-size", min_high + 1)),
        ({"quiet_zone": zone_high + 1}, fill("quiet-zone", zone_high + 1)),
        ({"scale": scale_low - 1}, fill("scale", scale_low - 1)),
        ({"scale": scale_high + 1}, fill("scale", scale_high + 1)),
        ({"dark": defaults["light"]}, same.format(value=defaults["light"])),
        ({"light": defaults["dark"]}, same.format(value=defaults["dark"])),
        ({"version": version_high + 1}, fill("version", version_high + 1)),
        ({"min_version": 0}, fill("min-version", 0, "version")),
        ({"micro": True, "version": micro_version_high + 1}, fill("version", micro_version_high + 1, "micro-version")),
        ({"version": 2, "min_version": 3}, contract["messages"]["version-conflict"]),
        ({"mask": mask_high + 1}, fill("mask", mask_high + 1)),
        ({"micro": True, "mask": micro_mask_high + 1}, fill("mask", micro_mask_high + 1, "micro-mask")),
        ({"micro": True, "ec_level": "high"}, contract["messages"]["micro-ec-level"]),
        # The generator's order: the first failing check answers.
        ({"min_size": 0, "quiet_zone": 17}, fill("min-size", 0)),
        ({"quiet_zone": 17, "scale": 0}, fill("quiet-zone", 17)),
        ({"scale": 0, "dark": defaults["light"]}, fill("scale", 0)),
        ({"dark": defaults["light"], "version": 0}, same.format(value=defaults["light"])),
        ({"version": 0, "min_version": 0}, fill("version", 0)),
        ({"version": 1, "min_version": 0}, fill("min-version", 0, "version")),
        ({"version": 1, "min_version": 1, "mask": 8}, contract["messages"]["version-conflict"]),
        ({"mask": 8, "micro": True, "ec_level": "high"}, fill("mask", 8, "micro-mask")),
    ]
    for options, message in refusals:
        with pytest.raises(HttpError) as info:
            check_ranges(options)
        assert (info.value.kind, info.value.message) == ("invalid-options", message), options
    for options in ({"min_size": min_high, "quiet_zone": zone_high},
                    {"min_size": min_low, "quiet_zone": 0, "scale": scale_high, "dark": "#ffffffff",
                     "light": "#000000ff"},
                    {"micro": True, "version": micro_version_high, "mask": micro_mask_high, "ec_level": "quartile",
                     "boost_ec": True}):
        assert check_ranges(options) == http_contract.Ranged(**options)  # type: ignore[arg-type]
