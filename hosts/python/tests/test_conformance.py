"""Golden vectors, error kinds, defaults and independent decoding, on both paths."""

from __future__ import annotations

import hashlib
import io
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import zxingcpp
from PIL import Image

import qrglue
import qrglue.raw
from conftest import CASES, EXPECTED, REFERENCE_URL_CASE
from corpus import case_options, case_text
from qrglue import QrError

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_vectors_cover_every_error_kind() -> None:
    kinds = {e["error"] for e in EXPECTED.values() if "error" in e}
    assert kinds == {"empty-text", "invalid-text", "data-too-long", "invalid-options"}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_golden_vector(gen: Any, case: dict[str, Any]) -> None:
    expected = EXPECTED[case["id"]]
    text, options = case_text(case), case_options(case)
    if "error" in expected:
        for render in (gen.png, gen.svg):
            with pytest.raises(QrError) as info:
                render(text, **options)
            assert (info.value.kind, str(info.value)) == (expected["error"], expected["message"])
    else:
        png = gen.png(text, **options)
        assert png.startswith(PNG_SIGNATURE)
        assert len(png) == expected["png_bytes"]
        assert sha256(png) == expected["png_sha256"]
        assert sha256(gen.svg(text, **options).encode("utf-8")) == expected["svg_sha256"]


def test_module_functions_match_golden_on_both_paths() -> None:
    text = REFERENCE_URL_CASE["text"]
    expected = EXPECTED["ref-02"]
    for module in (qrglue, qrglue.raw):
        assert sha256(module.png(text)) == expected["png_sha256"]
        assert sha256(module.svg(text).encode()) == expected["svg_sha256"]


def test_defaults_are_low_200_4(gen: Any) -> None:
    text = REFERENCE_URL_CASE["text"]
    explicit = gen.png(text, ec_level="low", min_size=200, quiet_zone=4)
    assert gen.png(text) == explicit
    assert gen.png(text, ec_level="high") != explicit
    assert gen.png(text, min_size=300) != explicit
    assert gen.png(text, quiet_zone=0) != explicit
    assert Image.open(io.BytesIO(explicit)).size == (222, 222)  # 29 modules + 2*4, scale 6


@pytest.mark.parametrize("text, options, kind", [
    ("", {}, "empty-text"),
    ("", {"min_size": 0}, "empty-text"),                 # empty-text comes before invalid-options
    ("", {"min_size": "big"}, "empty-text"),             # ...even when the options cannot be passed
    ("ab\ud800cd", {}, "invalid-text"),                  # lone high surrogate
    ("\udfff", {"min_size": 0}, "invalid-text"),         # lone low surrogate, before invalid-options
    ("x" * 7090, {}, "data-too-long"),                   # over 7089 bytes: rejected on the host
    ("é" * 3545, {}, "data-too-long"),                   # 7090 UTF-8 bytes, 3545 chars
    ("x" * 7090, {"min_size": 0}, "data-too-long"),      # before invalid-options
    ("a" * 3000, {"ec_level": "high"}, "data-too-long"),  # fits 7089 bytes, not a version-40-H code
    ("x", {"min_size": 0}, "invalid-options"),
    ("x", {"min_size": 4097}, "invalid-options"),
    ("x", {"quiet_zone": 17}, "invalid-options"),
    ("x", {"ec_level": "ultra"}, "invalid-options"),
    ("x", {"ec_level": 0}, "invalid-options"),
    ("x", {"min_size": True}, "invalid-options"),        # bool is not a size
    ("x", {"min_size": 2.0}, "invalid-options"),
    ("x", {"min_size": -1}, "invalid-options"),
    ("x", {"quiet_zone": 2**32}, "invalid-options"),
])
def test_error_kinds(gen: Any, text: str, options: dict[str, Any], kind: str) -> None:
    for render in (gen.png, gen.svg):
        with pytest.raises(QrError) as info:
            render(text, **options)
        assert info.value.kind == kind
        assert isinstance(info.value, ValueError)


def test_range_messages_name_the_option(gen: Any) -> None:
    with pytest.raises(QrError) as info:
        gen.png("x", min_size=5000)
    assert str(info.value) == info.value.message == "min-size must be within 1..=4096, got 5000"


def test_non_str_text_is_a_type_error(gen: Any) -> None:
    with pytest.raises(TypeError):
        gen.png(b"bytes")


def test_options_are_keyword_only() -> None:
    with pytest.raises(TypeError):
        qrglue.png("x", "low")  # type: ignore[call-arg]  # deliberately positional: must be refused


@pytest.mark.parametrize("text", [
    REFERENCE_URL_CASE["text"],
    "héllo wörld ☃ 日本語 🦀",
    "8" * 7089,                               # the longest text any QR code holds
])
def test_zxing_decodes_exact_text(gen: Any, text: str) -> None:
    png = gen.png(text, min_size=200)
    results = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
    assert [r.text for r in results] == [text]
    assert results[0].format == zxingcpp.BarcodeFormat.QRCode


def test_svg_is_a_document(gen: Any) -> None:
    svg = gen.svg("hello")
    assert svg.lstrip().startswith("<") and "<svg" in svg and svg.rstrip().endswith("</svg>")


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
    with pytest.raises(QrError):
        gen.png("")  # errors still map after recovery


def test_probes(gen: Any) -> None:
    gen.noop()
    for n in (0, 1, 251, 1000):
        data = bytes(range(256)) * (n // 256 + 1)
        assert gen.consume(data[:n]) == n
        assert gen.produce(n) == bytes(i % 251 for i in range(n))
    png = gen.png("hello")
    assert gen.png_repeat("hello", 3) == len(png)
    with pytest.raises(QrError) as info:
        gen.png_repeat("", 3)
    assert info.value.kind == "empty-text"


def _cli(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "qrglue", *args], capture_output=True, check=False)


@pytest.mark.parametrize("path", ["component", "raw", "native"])
def test_cli_writes_the_golden_png_and_svg_on_every_path(tmp_path: Path, path: str) -> None:
    text = REFERENCE_URL_CASE["text"]
    out = tmp_path / f"{path}.png"
    done = _cli("png", text, "-o", str(out), "--path", path)
    assert done.returncode == 0, done.stderr
    assert (done.stdout, done.stderr) == (b"", b"")
    assert sha256(out.read_bytes()) == EXPECTED["ref-02"]["png_sha256"]
    # No -o and `-o -`: standard output (a pipe here, so no terminal refusal).
    for output in ([], ["-o", "-"]):
        done = _cli("png", text, "--path", path, *output)
        assert done.returncode == 0, done.stderr
        assert sha256(done.stdout) == EXPECTED["ref-02"]["png_sha256"]
        done = _cli("svg", text, "--path", path, *output)
        assert done.returncode == 0, done.stderr
        assert sha256(done.stdout) == EXPECTED["ref-02"]["svg_sha256"]


def test_cli_options_as_the_rust_cli_takes_them(tmp_path: Path) -> None:
    want = qrglue.png("hello", ec_level="quartile", min_size=300, quiet_zone=2)
    for ec in ("q", "Q", "quartile", "QUARTILE"):
        done = _cli("png", "hello", "--ec-level", ec, "--min-size", "300", "--quiet-zone", "2")
        assert done.returncode == 0, done.stderr
        assert done.stdout == want
    assert _cli("png", "hello").stdout == qrglue.png("hello")  # the defaults


def test_cli_reports_generator_errors_with_exit_1_and_writes_nothing(tmp_path: Path) -> None:
    cases = [
        (["png", ""], "qrglue: empty-text: text is empty\n"),
        (["svg", "x" * 7090], "qrglue: data-too-long: text does not fit in a QR code at this error-correction level\n"),
        (["png", "ok", "--min-size", "0"], "qrglue: invalid-options: min-size must be within 1..=4096, got 0\n"),
        (["png", "ok", "--quiet-zone", "17", "--path", "raw"],
         "qrglue: invalid-options: quiet-zone must be within 0..=16, got 17\n"),
        (["png", "ok", "--min-size", "4097", "--path", "native"],
         "qrglue: invalid-options: min-size must be within 1..=4096, got 4097\n"),
    ]
    for args, line in cases:
        out = tmp_path / "x.out"
        done = _cli(*args, "-o", str(out))
        assert (done.returncode, done.stderr.decode()) == (1, line), args
        assert not out.exists()


@pytest.mark.parametrize("args", [
    [], ["png"], ["draw", "x"], ["png", "x", "--path", "wasm"], ["png", "x", "--ec-level", "z"],
    ["png", "x", "--min-size", "-1"], ["png", "x", "--min-size", "1.5"], ["png", "x", "--quiet-zone", "4294967296"],
    ["png", "x", "y"], ["png", "x", "--colour", "red"], ["png", "x", "-o"],
])
def test_cli_usage_errors_exit_2(args: list[str]) -> None:
    done = _cli(*args)
    assert done.returncode == 2, (args, done.stderr)
    assert done.stdout == b""
    assert b"usage: qrglue" in done.stderr


def test_cli_write_failure_exits_3(tmp_path: Path) -> None:
    done = _cli("png", "hello", "-o", str(tmp_path / "no-such-dir" / "x.png"))
    assert done.returncode == 3
    assert done.stderr.decode().startswith("qrglue: cannot write ")


@pytest.mark.skipif(shutil.which("script") is None, reason="util-linux script gives the CLI a terminal")
def test_cli_refuses_a_png_on_a_terminal_unless_forced(tmp_path: Path) -> None:
    def on_terminal(*args: str) -> tuple[int, bytes]:
        command = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "qrglue", *args])
        log = tmp_path / "typescript"
        done = subprocess.run(["script", "-qec", command, str(log)], capture_output=True, check=False)
        return done.returncode, done.stdout

    code, screen = on_terminal("png", "hello")
    assert code == 2
    assert b"refusing to write a PNG to a terminal" in screen
    assert b"IHDR" not in screen
    code, screen = on_terminal("png", "hello", "-o", "-")
    assert code == 0
    assert b"IHDR" in screen
    code, screen = on_terminal("svg", "hello")
    assert code == 0
    assert b"<svg" in screen
