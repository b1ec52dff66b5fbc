"""The query grammar's shared cases (tests/http/query_cases.json), run through
this server's way to guest/http-query (the native extension, http_query.py):
the same cases the crate runs itself (cargo test) and the Node server runs
through its addon. What is checked here is the binding: the bytes in, the
options out under the Python API's names, a refusal as an HttpError.
(Request targets are httptools' to split here: tests/http covers them over HTTP.)"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from http_query import HttpError, check_query, method_class

ROOT = Path(__file__).resolve().parents[3]
CASES = json.loads((ROOT / "tests" / "http" / "query_cases.json").read_text("utf-8"))
CONTRACT = json.loads((ROOT / "target" / "contract.json").read_text("utf-8"))


def refusal(query: bytes, alone: bool) -> dict[str, str]:
    with pytest.raises(HttpError) as info:
        check_query(query, alone)
    return {"kind": info.value.kind, "message": info.value.message}


@pytest.mark.parametrize("case", CASES["queries"], ids=lambda case: case["query"][:60])
def test_shared_query_case(case: dict[str, Any]) -> None:
    query = case["query"].encode("ascii")
    if "refused" in case:
        assert refusal(query, False) == case["refused"]
        return
    got = check_query(query, False)
    if case.get("empty"):
        assert got == ("", {})
        return
    want = dict(case["request"])
    text = want.pop("text")
    assert got == (text, {name.replace("-", "_"): value for name, value in want.items()})


def test_raw_bytes() -> None:
    assert check_query(b"text=%C3%A9\xc3\xa9", False) == ("\u00e9\u00e9", {})
    assert refusal(b"text=\xff", False)["kind"] == "invalid-text"


def test_shared_methods() -> None:
    assert len(CASES["queries"]) >= 240
    for kind, methods in CASES["methods"].items():
        for method in methods:
            assert method_class(method) == kind, method


def test_alone_refuses_as_the_generator_would() -> None:
    # The tiers with no generator (static, segno) get the generator's
    # refusals from the query's check: the core's messages, as
    # target/contract.json has them, in the core's order.
    messages, bounds, defaults = CONTRACT["messages"], CONTRACT["bounds"], CONTRACT["defaults"]

    def fill(option: str, value: int, bounds_of: str | None = None) -> dict[str, str]:
        low, high = bounds[bounds_of or option]
        return invalid(messages["out-of-range"].format(option=option, min=low, max=high, value=value))

    def invalid(message: str) -> dict[str, str]:
        return {"kind": "invalid-options", "message": message}

    light = defaults["light"]
    assert refusal(b"text=", True) == {"kind": "empty-text", "message": messages["empty-text"]}
    assert check_query(b"text=", False) == ("", {})
    for query, want in [
        ("min-size=0&quiet-zone=17", fill("min-size", 0)),
        ("quiet-zone=17&scale=0", fill("quiet-zone", 17)),
        ("scale=21", fill("scale", 21)),
        (f"dark={quote(light)}&version=0", invalid(messages["same-colors"].format(value=light))),
        ("micro=true&version=5", fill("version", 5, "micro-version")),
        ("version=2&min-version=3", invalid(messages["version-conflict"])),
        ("mask=8&micro=true&ec-level=high", fill("mask", 8, "micro-mask")),
        ("micro=true&ec-level=high", invalid(messages["micro-ec-level"])),
        ("micro=true&eci=true", invalid(messages["micro-eci"])),
    ]:
        assert refusal(f"text=a&{query}".encode(), True) == want, query
    # Passed: resolved, every option at its value or the core's default
    # (scale, version, min_version and mask only when given).
    text, options = check_query(b"text=a&micro=true&version=4&mask=3&ec-level=quartile&boost-ec=true", True)
    assert (text, options) == ("a", {
        "ec_level": "quartile", "min_size": defaults["min-size"], "quiet_zone": defaults["quiet-zone"],
        "dark": defaults["dark"], "light": light, "micro": True, "version": 4, "mask": 3, "boost_ec": True,
        "eci": defaults["eci"],
    })
    assert refusal(b"text=&bogus=1", True)["kind"] == "bad-query"
