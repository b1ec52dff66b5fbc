"""conformance/runner.py as tests/conformance/run.py calls it: a subprocess
printing {"paths": {...}} for the corpus in $QRGLUE_VECTORS_DIR."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import qrglue
import qrglue.native
from conftest import CASES, EXPECTED, REFERENCE_URL_CASE, VECTORS
from corpus import matrix_sha256, sha256

RUNNER = Path(__file__).resolve().parents[1] / "conformance" / "runner.py"
PATHS = {"python-component", "python-raw", "python-native"}


def run_runner(vectors: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(RUNNER)], capture_output=True, text=True,
                          env={**os.environ, "QRGLUE_VECTORS_DIR": str(vectors)})


def results_for(vectors: Path) -> dict[str, dict[str, Any]]:
    done = run_runner(vectors)
    assert done.returncode == 0, done.stderr
    paths: dict[str, dict[str, Any]] = json.loads(done.stdout)["paths"]
    assert set(paths) == PATHS
    return paths


def test_every_case_on_both_paths_matches_expected() -> None:
    for path, outcomes in results_for(VECTORS).items():
        assert list(outcomes) == [c["id"] for c in CASES], path
        differences = {i: (o, EXPECTED[i]) for i, o in outcomes.items() if o != EXPECTED[i]}
        assert differences == {}, path


def test_case_forms_and_defaults(tmp_path: Path) -> None:
    ref = REFERENCE_URL_CASE
    assert ref["options"] in ({}, {"ec-level": "low", "min-size": 200, "quiet-zone": 4})
    cases = [
        # options left out entirely: the runner must pass none, so API defaults apply
        {"id": "defaults", "text": ref["text"], "options": {}},
        {"id": "no-options-key", "text": ref["text"]},
        {"id": "lone-surrogate", "text": "ab\ud800", "options": {}},
        {"id": "repeat-fits", "text_repeat": {"unit": "ab", "count": 3}, "options": {"quiet-zone": 0}},
        {"id": "repeat-too-long", "text_repeat": {"unit": "é", "count": 3545}, "options": {}},
        {"id": "bad-option", "text": "x", "options": {"min-size": 4097}},
        # data_hex: a binary payload, hex-decoded and passed as bytes.
        {"id": "payload-of-the-text", "data_hex": ref["text"].encode().hex(), "options": {}},
        {"id": "payload-not-utf8", "data_hex": "fffeeda080"},
        {"id": "payload-empty", "data_hex": "", "options": {"min-size": 0}},
        {"id": "payload-too-long", "data_hex": "00" * 7090, "options": {}},
    ]
    # json.dumps writes "\ud800" as an escape, as the corpus does.
    (tmp_path / "cases.json").write_text(json.dumps({"cases": cases}))
    repeat_png = qrglue.png("ababab", quiet_zone=0)
    repeat_expected = {"png_sha256": sha256(repeat_png), "png_bytes": len(repeat_png),
                       "svg_sha256": sha256(qrglue.svg("ababab", quiet_zone=0).encode()),
                       "matrix_sha256": matrix_sha256(qrglue.matrix("ababab")),
                       "text_sha256": {style: sha256(qrglue.text("ababab", style=style, quiet_zone=0).encode())
                                       for style in qrglue.TEXT_STYLES}}
    payload = bytes.fromhex("fffeeda080")
    payload_png = qrglue.native.png(payload)
    payload_expected = {"png_sha256": sha256(payload_png), "png_bytes": len(payload_png),
                        "svg_sha256": sha256(qrglue.native.svg(payload).encode()),
                        "matrix_sha256": matrix_sha256(qrglue.native.matrix(payload)),
                        "text_sha256": {style: sha256(qrglue.native.text(payload, style=style).encode())
                                        for style in qrglue.TEXT_STYLES}}
    for path, outcomes in results_for(tmp_path).items():
        assert outcomes["defaults"] == outcomes["no-options-key"] == EXPECTED["ref-02"], path
        assert outcomes["lone-surrogate"] == {
            "error": "invalid-text", "message": "text contains a lone surrogate (not encodable as UTF-8)"}, path
        assert outcomes["repeat-fits"] == repeat_expected, path
        assert outcomes["repeat-too-long"] == {
            "error": "data-too-long", "message": "text does not fit in any QR code: "
            "it is over 7089 bytes, the most one holds"}, path
        assert outcomes["bad-option"] == {
            "error": "invalid-options", "message": "min-size must be within 1..=4096, got 4097"}, path
        assert outcomes["payload-of-the-text"] == EXPECTED["ref-02"], path
        assert outcomes["payload-not-utf8"] == payload_expected, path
        assert outcomes["payload-empty"] == {"error": "empty-text", "message": "text is empty"}, path
        assert outcomes["payload-too-long"] == {
            "error": "data-too-long", "message": "text does not fit in any QR code: "
            "it is over 7089 bytes, the most one holds"}, path


def test_missing_corpus_fails(tmp_path: Path) -> None:
    done = run_runner(tmp_path / "nowhere")
    assert done.returncode != 0
    assert done.stdout == ""


def test_outcome_reports_outputs_disagreement() -> None:
    from corpus import outcome

    matrix = qrglue.QrMatrix(21, bytes(56))

    def fails(kind: str, message: str | None = None) -> Any:
        def render(text: str, **options: Any) -> Any:
            raise qrglue.QrError(kind, message)
        return render

    def crashes(text: str, **options: Any) -> Any:
        raise RuntimeError("boom")

    def outputs(**overrides: Any) -> Any:
        renders = {"png": lambda text, **options: b"png", "svg": lambda text, **options: "<svg/>",
                   "matrix": lambda text, **options: matrix,
                   "text": lambda text, *, style, **options: f"drawn in {style}"}
        return SimpleNamespace(**{**renders, **overrides})

    case = {"id": "x", "text": "x", "options": {"min-size": 5}}
    assert outcome(outputs(), case) == {
        "png_sha256": sha256(b"png"), "png_bytes": 3, "svg_sha256": sha256(b"<svg/>"),
        "matrix_sha256": sha256(b"\x15\x00\x00\x00" + bytes(56)),
        "text_sha256": {style: sha256(f"drawn in {style}".encode()) for style in qrglue.TEXT_STYLES}}
    assert matrix_sha256(matrix) == sha256(b"\x15\x00\x00\x00" + bytes(56))  # width as a little-endian u32
    every = ("png", "svg", "matrix", "text")
    assert outcome(outputs(**dict.fromkeys(every, fails("empty-text"))), case) == {
        "error": "empty-text", "message": "text is empty"}
    # Any one output that does not give the others' answer is a disagreement.
    for odd in every:
        assert outcome(outputs(**{odd: fails("empty-text")}), case) == {"error": "outputs-disagree"}, odd
        others = {name: fails("empty-text") for name in every if name != odd}
        assert outcome(outputs(**others, **{odd: fails("data-too-long")}), case) == {"error": "outputs-disagree"}, odd
        # the same kind with another message is a disagreement too
        others = {name: fails("invalid-options", "a") for name in every if name != odd}
        assert outcome(outputs(**others, **{odd: fails("invalid-options", "b")}), case) == {
            "error": "outputs-disagree"}, odd
    # A text style that fails where the others draw.
    def ascii_fails(text: str, *, style: str, **options: Any) -> str:
        if style == "ascii":
            raise qrglue.QrError("empty-text")
        return "drawn"
    assert outcome(outputs(text=ascii_fails), case) == {"error": "outputs-disagree"}
    assert outcome(outputs(**dict.fromkeys(every, crashes)), case) == {"error": "unexpected RuntimeError: boom"}
