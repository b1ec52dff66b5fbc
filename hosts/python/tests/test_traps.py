"""A trap, or any failure inside a call that is not a contract error, is an
error for that call only: the instance is retired and the next call is
golden."""

from __future__ import annotations

from typing import Any

import pytest

import qrglue
import qrglue.native
import qrglue.raw
from conftest import EXPECTED, REFERENCE_URL_CASE, WASM_PATHS
from corpus import case_options, case_text, matrix_sha256, sha256
from qrglue import QrError


def test_trap_recovery(wasm_gen: Any) -> None:
    # The native path has no guest to trap: its panic probe, test_native.py.
    gen = wasm_gen
    text, options = case_text(REFERENCE_URL_CASE), case_options(REFERENCE_URL_CASE)
    golden = EXPECTED[REFERENCE_URL_CASE["id"]]
    for _ in range(3):
        with pytest.raises(qrglue.GuestTrap, match="trapped") as info:
            gen.trap()
        assert "unreachable" in str(info.value.__cause__)  # the wasm reason is kept
        # a fresh Store: the very next call returns the golden bytes
        assert sha256(gen.png(text, **options)) == golden["png_sha256"]
        assert sha256(gen.svg(text, **options).encode()) == golden["svg_sha256"]
        assert matrix_sha256(gen.matrix(text, **options)) == golden["matrix_sha256"]
        assert sha256(gen.text(text, **options).encode()) == golden["text_sha256"]["half-blocks"]
    with pytest.raises(QrError):
        gen.png("")  # errors still map after recovery
    with pytest.raises(QrError):
        gen.text("x", style="sepia")


@pytest.mark.parametrize("path", sorted(WASM_PATHS))
@pytest.mark.parametrize("failure", [MemoryError, KeyboardInterrupt, TypeError])
def test_a_failure_that_is_not_the_contracts_retires_the_instance(path: str, failure: type[BaseException]) -> None:
    # A failure raised inside a call (here injected into the glue after the
    # guest has run: an allocation failure, an interrupt, a glue bug) leaves
    # the instance in an unknown state: the next call must run on a new one,
    # as the Rust host does. A QrError must not cost an instance.
    gen = WASM_PATHS[path]()
    text = case_text(REFERENCE_URL_CASE)
    golden = EXPECTED[REFERENCE_URL_CASE["id"]]["png_sha256"]
    with pytest.raises(QrError):
        gen.png("")
    assert gen.instances == 1
    calls = gen._calls
    real_png = calls.png

    def failing_png(*args: Any) -> bytes:
        real_png(*args)
        raise failure("injected")

    calls.png = failing_png
    with pytest.raises(failure, match="injected"):
        gen.png(text)
    assert sha256(gen.png(text)) == golden
    assert gen.instances == 2 and gen._calls is not calls
    with pytest.raises(qrglue.GuestTrap):
        gen.trap()
    assert sha256(gen.png(text)) == golden and gen.instances == 3
