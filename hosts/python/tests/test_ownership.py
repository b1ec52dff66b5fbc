"""Results are owned copies: unchanged by 1,000 later calls."""

from __future__ import annotations

from typing import Any

from conftest import EXPECTED, REFERENCE_CASES, REFERENCE_URL_CASE
from corpus import case_options, case_text, sha256


def test_result_unchanged_after_1000_later_calls(gen: Any) -> None:
    text, options = case_text(REFERENCE_URL_CASE), case_options(REFERENCE_URL_CASE)
    golden = EXPECTED[REFERENCE_URL_CASE["id"]]
    first_png, first_svg = gen.png(text, **options), gen.svg(text, **options)
    assert type(first_png) is bytes and type(first_svg) is str  # owned copies, not views
    # Later calls of other sizes reuse and grow the guest's buffers.
    for i in range(1000):
        later = REFERENCE_CASES[i % len(REFERENCE_CASES)]
        if i % 100 == 0:
            gen.png(case_text(later), min_size=1024)
        else:
            gen.png(case_text(later), **case_options(later))
    assert sha256(first_png) == golden["png_sha256"]
    assert sha256(first_svg.encode("utf-8")) == golden["svg_sha256"]
