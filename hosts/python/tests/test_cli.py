"""The `python -m qrglue` CLI: golden output (png, svg, text) on every path,
the Rust CLI's options, a payload from --data-file, exit codes 1/2/3, no PNG
on a terminal unless forced."""

from __future__ import annotations

import hashlib
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import qrglue
import qrglue.raw
from conftest import EXPECTED, REFERENCE_URL_CASE


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _cli(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "qrglue", *args], capture_output=True, check=False)


def test_auto_is_the_native_extension_where_it_is_installed_and_the_clis_default() -> None:
    import qrglue.auto
    import qrglue.native

    # The dev venv has the extension (just build-python), as an install with qrglue-native has.
    assert qrglue.auto.path == "native"
    assert qrglue.auto.png is qrglue.native.png and qrglue.auto.text is qrglue.native.text
    done = _cli("png", REFERENCE_URL_CASE["text"], "-o", "-")  # no --path: auto
    assert sha256(done.stdout) == EXPECTED["ref-02"]["png_sha256"]
    help_text = _cli("png", "--help").stdout.decode()
    assert "[default: auto]" in help_text and "auto" in help_text.split("--path")[1].split("\n")[0]


def test_auto_falls_back_to_the_component_without_the_extension() -> None:
    # A None in sys.modules hides the extension as if it were not installed.
    code = ("import sys; sys.modules['qrglue._native'] = None; import qrglue, qrglue.auto as auto; "
            "print(auto.path, auto.png is qrglue.png, auto.png('hi') == qrglue.png('hi'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout) == (0, "component True True\n"), done.stderr


@pytest.mark.parametrize("path", ["auto", "component", "raw", "native"])
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
        done = _cli("text", text, "--path", path, *output)  # the default style
        assert done.returncode == 0, done.stderr
        assert sha256(done.stdout) == EXPECTED["ref-02"]["text_sha256"]["half-blocks"]


@pytest.mark.parametrize("path", ["auto", "component", "raw", "native"])
def test_cli_writes_the_golden_text_in_every_style(tmp_path: Path, path: str) -> None:
    text = REFERENCE_URL_CASE["text"]
    for style in qrglue.TEXT_STYLES:
        out = tmp_path / f"{style}.txt"
        done = _cli("text", text, "--style", style, "-o", str(out), "--path", path)
        assert (done.returncode, done.stdout, done.stderr) == (0, b"", b""), done.stderr
        assert sha256(out.read_bytes()) == EXPECTED["ref-02"]["text_sha256"][style]
    done = _cli("text", "hello", "--style", "ascii", "--quiet-zone", "1", "--ec-level", "high", "--path", path)
    assert done.stdout.decode() == qrglue.text("hello", style="ascii", quiet_zone=1, ec_level="high")


def test_cli_options_as_the_rust_cli_takes_them(tmp_path: Path) -> None:
    want = qrglue.png("hello", ec_level="quartile", min_size=300, quiet_zone=2)
    done = _cli("png", "hello", "--ec-level", "quartile", "--min-size", "300", "--quiet-zone", "2")
    assert done.returncode == 0, done.stderr
    assert done.stdout == want
    # The WIT names alone, as the library takes them (and the Rust and Node CLIs): no letters, no other case.
    for ec in ("q", "Q", "QUARTILE"):
        assert _cli("png", "hello", "--ec-level", ec).returncode == 2, ec
    assert _cli("png", "hello").stdout == qrglue.png("hello")  # the defaults


@pytest.mark.parametrize("path", ["component", "raw", "native"])
def test_cli_scale_and_colours(path: str) -> None:
    options: dict[str, Any] = {"scale": 3, "dark": "#336699", "light": "#fff0"}
    flags = ["--scale", "3", "--dark", "#336699", "--light", "#fff0", "--path", path]
    assert _cli("png", "hello", *flags).stdout == qrglue.png("hello", **options)
    assert _cli("svg", "hello", *flags).stdout.decode() == qrglue.svg("hello", **options)
    # text takes them (and the style) but draws no colours.
    assert _cli("text", "hello", *flags, "--style", "ascii").stdout.decode() == qrglue.text("hello", style="ascii")
    colour = "must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got"
    for args, line in [
        (["--dark", "red"], f"qrglue: invalid-options: dark {colour} 'red'\n"),
        (["--light", "#12345"], f"qrglue: invalid-options: light {colour} '#12345'\n"),
        (["--dark", "#000", "--light", "#000000ff"],
         "qrglue: invalid-options: dark and light must be different colours, both are #000000ff\n"),
        # A colour WIT cannot carry is the host's error: before any of the guest's (docs/contract.md).
        (["--scale", "21", "--dark", "red"], f"qrglue: invalid-options: dark {colour} 'red'\n"),
        (["--scale", "21", "--dark", "#000"], "qrglue: invalid-options: scale must be within 1..=20, got 21\n"),
        (["--scale", "0"], "qrglue: invalid-options: scale must be within 1..=20, got 0\n"),
        (["--min-size", "0", "--dark", "red"], f"qrglue: invalid-options: dark {colour} 'red'\n"),
    ]:
        for command in ("png", "svg", "text"):
            done = _cli(command, "hello", "--path", path, *args)
            assert (done.returncode, done.stdout, done.stderr.decode()) == (1, b"", line), (command, args)
    done = _cli("png", "", "--path", path, "--dark", "#000")
    assert (done.returncode, done.stderr.decode()) == (1, "qrglue: empty-text: text is empty\n")


@pytest.mark.parametrize("path", ["component", "raw", "native"])
def test_cli_symbol_flags_reach_the_generator(path: str) -> None:
    # The Rust CLI's words: --micro, --symbol-version (--version prints ours),
    # --min-version, --mask, --boost-ec; each changes what is drawn.
    def cli(*args: str) -> subprocess.CompletedProcess[bytes]:
        return _cli(*args, "--path", path)

    default = cli("text", "hello", "--style", "ascii", "--quiet-zone", "0").stdout.decode()
    assert len(default.splitlines()) == 21
    versioned = cli("text", "hello", "--style", "ascii", "--quiet-zone", "0", "--symbol-version", "5").stdout
    assert len(versioned.decode().splitlines()) == 37  # a 37-module matrix
    assert cli("png", "hello", "--symbol-version", "5").stdout == qrglue.png("hello", version=5) != qrglue.png("hello")
    micro = cli("text", "12345", "--micro", "--style", "ascii", "--quiet-zone", "0").stdout.decode()
    assert len(micro.splitlines()) == 11  # M1
    assert cli("svg", "12345", "--micro").stdout.decode() == qrglue.svg("12345", micro=True)
    symbol_flags: list[tuple[list[str], dict[str, Any]]] = [
        (["--min-version", "3"], {"min_version": 3}),
        (["--mask", "6"], {"mask": 6}),
        (["--boost-ec"], {"boost_ec": True}),
        (["--eci"], {"eci": True}),
        (["--micro", "--symbol-version", "4", "--mask", "2", "--boost-ec", "--ec-level", "medium"],
         {"micro": True, "version": 4, "mask": 2, "boost_ec": True, "ec_level": "medium"}),
    ]
    for flags, options in symbol_flags:
        want = qrglue.png("hello", **options)
        assert want != qrglue.png("hello"), flags
        assert cli("png", "hello", *flags).stdout == want, flags
    for args, line in [
        (["--mask", "8"], "qrglue: invalid-options: mask must be within 0..=7, got 8\n"),
        (["--micro", "--mask", "4"], "qrglue: invalid-options: mask must be within 0..=3, got 4\n"),
        (["--symbol-version", "41"], "qrglue: invalid-options: version must be within 1..=40, got 41\n"),
        (["--micro", "--min-version", "5"], "qrglue: invalid-options: min-version must be within 1..=4, got 5\n"),
        (["--symbol-version", "2", "--min-version", "2"],
         "qrglue: invalid-options: version and min-version exclude each other: give one\n"),
        (["--micro", "--ec-level", "high"],
         "qrglue: invalid-options: ec-level high is not available in Micro QR (M4 goes up to quartile)\n"),
        (["--quiet-zone", "99", "--mask", "99"], "qrglue: invalid-options: quiet-zone must be within 0..=16, got 99\n"),
    ]:
        for command in ("png", "svg", "text"):
            done = cli(command, "hello", *args)
            assert (done.returncode, done.stdout, done.stderr.decode()) == (1, b"", line), (command, args)
    done = cli("png", "hello world", "--micro", "--symbol-version", "1")
    assert (done.returncode, done.stderr.decode()) == (
        1, "qrglue: data-too-long: text does not fit in Micro QR version M1: M1 holds digits only\n")


def _cli_stdin(data: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "qrglue", *args], input=data, capture_output=True, check=False)


@pytest.mark.parametrize("path", ["component", "raw", "native"])
def test_cli_data_file_encodes_the_files_bytes_on_every_path(tmp_path: Path, path: str) -> None:
    # A file's bytes, any bytes, are the payload (the *-bytes generators):
    # from a file or from standard input (`-`), in every output.
    payloads = {"not-utf8": b"\xff\xfe\xed\xa0\x80\x00", "ref-02 as bytes": REFERENCE_URL_CASE["text"].encode(),
                "5596 digits": b"7" * 5596}  # the most digits at level medium
    for name, data in payloads.items():
        source = tmp_path / f"{name}.bin"
        source.write_bytes(data)
        for command, render in (("png", qrglue.png), ("svg", qrglue.svg), ("text", qrglue.text)):
            expected = render(data, ec_level="medium")
            want = expected if isinstance(expected, bytes) else expected.encode()
            done = _cli(command, "--data-file", str(source), "--path", path, "--ec-level", "medium")
            assert (done.returncode, done.stderr) == (0, b""), (name, command)
            assert done.stdout == want, (name, command)
            done = _cli_stdin(data, command, "--data-file", "-", "--path", path, "--ec-level", "medium")
            assert (done.returncode, done.stdout) == (0, want), (name, command, done.stderr)
    # The bytes of the reference text give its golden code.
    done = _cli("png", "--data-file", str(tmp_path / "ref-02 as bytes.bin"), "--path", path)
    assert sha256(done.stdout) == EXPECTED["ref-02"]["png_sha256"]
    # -o and the options as for a TEXT.
    out = tmp_path / "out.svg"
    done = _cli("svg", "--data-file", str(tmp_path / "not-utf8.bin"), "-o", str(out), "--path", path, "--scale", "3",
                "--dark", "#336699")
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert out.read_text() == qrglue.svg(payloads["not-utf8"], scale=3, dark="#336699")


def test_cli_data_file_errors(tmp_path: Path) -> None:
    empty, long, fine = tmp_path / "empty", tmp_path / "long", tmp_path / "fine"
    empty.write_bytes(b"")
    long.write_bytes(b"\xff" * 10_000_000)  # refused by its length: only 7090 bytes are read
    fine.write_bytes(b"\xff")
    too_long = "qrglue: data-too-long: text does not fit in any QR code: it is over 7089 bytes, the most one holds\n"
    for args, stdin, code, line in [
        (["png", "--data-file", str(empty)], b"", 1, "qrglue: empty-text: text is empty\n"),
        (["png", "--data-file", "-"], b"", 1, "qrglue: empty-text: text is empty\n"),
        (["svg", "--data-file", str(long), "--path", "raw"], b"", 1, too_long),
        (["text", "--data-file", "-", "--path", "native"], b"\x00" * 7090, 1, too_long),
        (["png", "--data-file", str(fine), "--min-size", "0"], b"", 1,
         "qrglue: invalid-options: min-size must be within 1..=4096, got 0\n"),
        (["png", "--data-file", str(tmp_path / "missing")], b"", 3,
         f"qrglue: cannot read the payload from {tmp_path / 'missing'}: No such file or directory\n"),
        (["png", "--data-file", str(tmp_path)], b"", 3,
         f"qrglue: cannot read the payload from {tmp_path}: Is a directory\n"),
    ]:
        done = _cli_stdin(stdin, *args)
        assert (done.returncode, done.stdout, done.stderr.decode()) == (code, b"", line), args
    # TEXT and --data-file exclude each other; one of them is required.
    for args in (["png", "x", "--data-file", str(fine)], ["png"], ["png", "--data-file"], ["text", "--style", "ascii"]):
        done = _cli(*args)
        assert (done.returncode, done.stdout) == (2, b""), args
        assert b"usage: qrglue" in done.stderr and b"TEXT" in done.stderr, args


def test_cli_reports_generator_errors_with_exit_1_and_writes_nothing(tmp_path: Path) -> None:
    cases = [
        (["png", ""], "qrglue: empty-text: text is empty\n"),
        (["svg", "x" * 7090], "qrglue: data-too-long: text does not fit in any QR code: "
         "it is over 7089 bytes, the most one holds\n"),
        (["png", "ok", "--min-size", "0"], "qrglue: invalid-options: min-size must be within 1..=4096, got 0\n"),
        (["png", "ok", "--quiet-zone", "17", "--path", "raw"],
         "qrglue: invalid-options: quiet-zone must be within 0..=16, got 17\n"),
        (["png", "ok", "--min-size", "4097", "--path", "native"],
         "qrglue: invalid-options: min-size must be within 1..=4096, got 4097\n"),
        (["text", "", "--style", "ascii"], "qrglue: empty-text: text is empty\n"),
        (["text", "ok", "--min-size", "0", "--path", "raw"],
         "qrglue: invalid-options: min-size must be within 1..=4096, got 0\n"),
        (["text", "a" * 3000, "--ec-level", "high", "--path", "native"],
         "qrglue: data-too-long: text does not fit in a QR code at level high: it needs 24020 data bits, "
         "version 40 holds 10208\n"),
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
    ["text", "x", "--style", "sepia"], ["text", "x", "--style", "ASCII"], ["text", "x", "--style"],
    ["png", "x", "--style", "ascii"],  # only text has a style
    ["png", "x", "--scale", "-1"], ["png", "x", "--scale", "1.5"], ["png", "x", "--scale"], ["png", "x", "--dark"],
    ["png", "x", "--mask", "-1"], ["png", "x", "--symbol-version"], ["png", "x", "--min-version", "two"],
    ["png", "x", "--micro", "yes"], ["png", "x", "--boost-ec=1"],
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
    code, screen = on_terminal("text", "hello")  # text is for terminals
    assert code == 0
    assert "\u2588".encode() in screen


@pytest.mark.parametrize("path", ["component", "raw", "native"])
def test_cli_svg_options_svg_only(tmp_path: Path, path: str) -> None:
    # --view-box-only, --title and --class reach svg on every path (svg only).
    flags = ["--view-box-only", "--title", "A </title> & \"code\"", "--class", "qr big"]
    done = _cli("svg", "hello", "--path", path, *flags)
    assert (done.returncode, done.stderr) == (0, b""), done.stderr
    assert done.stdout.decode() == qrglue.svg("hello", view_box_only=True, title='A </title> & "code"',
                                              svg_class="qr big")
    payload = tmp_path / "payload.bin"
    payload.write_bytes(b"\xff\x00")
    done = _cli("svg", "--data-file", str(payload), "--path", path, "--title", "bin")
    assert done.stdout.decode() == qrglue.svg(b"\xff\x00", title="bin")
    # The generator's refusals: exit 1 with the contract's message, after the other options'.
    done = _cli("svg", "hello", "--path", path, "--class", "a  b")
    assert done.returncode == 1 and done.stdout == b""
    assert done.stderr.decode().strip() == ('qrglue: invalid-options: class must be CSS class names (ASCII letters, '
                                            'digits, - and _) separated by single spaces, at most 256 bytes, '
                                            'got "a  b"')
    done = _cli("svg", "hello", "--path", path, "--min-size", "0", "--title", "\x07")
    assert done.returncode == 1 and b"min-size must be within" in done.stderr
    # A title over its bound is the host's error, before the guest's (docs/contract.md).
    done = _cli("svg", "hello", "--path", path, "--min-size", "0", "--title", "x" * 2000)
    assert done.returncode == 1 and b"title must be at most 1024 UTF-8 bytes, got 2000" in done.stderr
    # png and text do not take them: a usage error.
    for command in ("png", "text"):
        for flag in (["--view-box-only"], ["--title", "t"], ["--class", "c"]):
            done = _cli(command, "hello", "-o", str(tmp_path / "out"), *flag)
            assert done.returncode == 2 and b"unrecognized arguments" in done.stderr, (command, flag)
