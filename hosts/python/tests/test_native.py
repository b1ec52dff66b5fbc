"""The native path (qrglue.native, the PyO3 extension qrglue._native) on what
only it has: the GIL released around the core, panics caught, texts and
binary payloads refused without a copy, hostile arguments answered like the wasm paths, and the two
wheels (qrglue, qrglue-native) installed together into a fresh venv.

The corpus, the contract's messages, the check order, the agreement with the
other paths, 4 threads x 2,500 golden calls and the 100,000-call soak run on
this path too, through the shared fixtures (conftest.PATHS) and the
parametrized tests of test_golden.py, test_errors.py, test_traps.py, test_contract.py,
test_agreement.py, test_limits.py and test_concurrency.py."""

from __future__ import annotations

import array
import json
import os
import subprocess
import sys
import threading
import time
import venv
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import qrglue
import qrglue.native
import qrglue.raw
from conftest import EXPECTED, REFERENCE_URL_CASE
from corpus import case_options, case_text, matrix_sha256, sha256
from qrglue import QrError

HOST_DIR = Path(__file__).resolve().parents[1]
NATIVE_DIR = HOST_DIR / "native"
URL = case_text(REFERENCE_URL_CASE)
GOLDEN = EXPECTED[REFERENCE_URL_CASE["id"]]
LONE_SURROGATE = "text contains a lone surrogate (not encodable as UTF-8)"


def assert_golden() -> None:
    """The reference URL through every entry point returns the golden bytes."""
    options = case_options(REFERENCE_URL_CASE)
    assert sha256(qrglue.native.png(URL, **options)) == GOLDEN["png_sha256"]
    assert sha256(qrglue.native.svg(URL, **options).encode()) == GOLDEN["svg_sha256"]
    assert matrix_sha256(qrglue.native.matrix(URL, **options)) == GOLDEN["matrix_sha256"]
    assert sha256(qrglue.native.text(URL, style="ascii", **options).encode()) == GOLDEN["text_sha256"]["ascii"]
    assert qrglue.native.png_repeat(URL, 2, **options) == GOLDEN["png_bytes"]


def test_same_api_as_the_other_paths() -> None:
    assert qrglue.native.QrError is qrglue.QrError
    assert issubclass(qrglue.native.NativePanic, RuntimeError)
    assert qrglue.native.NativePanic.__module__ == "qrglue._native"
    gen = qrglue.native.Generator()
    assert gen.png(URL) == qrglue.native.png(URL) == qrglue.png(URL) == qrglue.raw.png(URL)
    assert gen.svg(URL) == qrglue.native.svg(URL) == qrglue.svg(URL)
    assert gen.matrix(URL) == qrglue.native.matrix(URL) == qrglue.matrix(URL) == qrglue.raw.matrix(URL)
    assert qrglue.native.QrMatrix is qrglue.QrMatrix and type(gen.matrix(URL).modules) is bytes
    assert gen.text(URL) == qrglue.native.text(URL) == qrglue.text(URL) == qrglue.raw.text(URL)
    assert qrglue.native.text(URL, style="ascii", quiet_zone=1) == qrglue.text(URL, style="ascii", quiet_zone=1)
    with pytest.raises(TypeError):
        qrglue.native.png(URL, "low")  # type: ignore[arg-type, call-arg, unused-ignore]  # options are keyword-only, as on the other paths
    with pytest.raises(TypeError):
        qrglue.native.text(URL, "ascii")  # type: ignore[arg-type, call-arg, unused-ignore]


def outcome(call: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, ...]:
    """What a call did: its result, or its exception's type, kind and message."""
    try:
        return ("ok", call(*args, **kwargs))
    except QrError as e:
        return ("QrError", e.kind, str(e), e.message)
    except Exception as e:
        return (type(e).__name__, str(e))


class BadRepr:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


class Text(str):
    pass


HOSTILE_TEXTS: list[Any] = [
    b"bytes", bytearray(b"x"), None, 42, 2**100, 1.5, ["x"], object(), BadRepr(), Text("a str subclass"),
    "\ud800", "a\udfffb", "\udc00\ud800", "\ud83d\U0001f980", "\x00", "\x00" * 7090, "é" * 3545, "é" * 3544,
    "\U0001f980" * 1773, "\U0001f980" * 1772, "\ud800" * 7090, "x" * 7089 + "\ud800", "",
]

def released_view() -> memoryview:
    view = memoryview(b"released")
    view.release()
    return view


class Payload(bytes):
    pass


# Binary payloads, good and bad: what the extension's *_bytes functions read
# themselves (its type checks and messages are the other paths').
HOSTILE_TEXTS += [
    memoryview(b"\xff\xfe"), memoryview(bytearray(b"\xed\xa0\x80")).toreadonly(), memoryview(b"abc").cast("c"),
    memoryview(b"abcd").cast("b", (2, 2)), memoryview(bytes(6)).cast("B", (2, 3))[:0], memoryview(b"abcd")[::2],
    memoryview(array.array("I", [1])), memoryview(array.array("B", b"hi")), released_view(), array.array("B", b"hi"),
    Payload(b"a bytes subclass"), bytes(7089), bytes(7090), bytearray(7090), memoryview(bytes(7090)), b"\xff" * 2954,
    b"", bytearray(), memoryview(b""),
]
HUGE_INTS: list[Any] = [2**31, 2**32, 2**32 - 1, 2**63, 2**64 + 1, -(2**63) - 1, 10**5000, -1]
HOSTILE_OPTIONS: list[dict[str, Any]] = [
    *({"min_size": n} for n in HUGE_INTS), *({"quiet_zone": n} for n in HUGE_INTS),
    {"min_size": True}, {"quiet_zone": False}, {"min_size": 200.0}, {"min_size": "200"}, {"min_size": None},
    {"min_size": BadRepr()}, {"min_size": [200]}, {"ec_level": None}, {"ec_level": b"low"}, {"ec_level": "Low"},
    {"ec_level": " low"}, {"ec_level": "low\x00"}, {"ec_level": "\ud800"}, {"ec_level": 0}, {"ec_level": BadRepr()},
    {"ec_level": Text("high")}, {"ec_level": "ultra", "min_size": 0, "quiet_zone": -1},
    # The symbol options: numbers past u32 and of other types, the bools' types, micro's bounds.
    *({"version": n} for n in HUGE_INTS), *({"min_version": n} for n in HUGE_INTS), *({"mask": n} for n in HUGE_INTS),
    {"version": True}, {"mask": False}, {"min_version": 2.0}, {"version": "5"}, {"mask": BadRepr()},
    {"micro": 1}, {"micro": None}, {"micro": BadRepr()}, {"boost_ec": 0}, {"boost_ec": "yes"},
    {"micro": True, "version": 5}, {"micro": True, "mask": 4}, {"micro": True, "ec_level": "high"},
    {"version": 2, "min_version": 2}, {"micro": "x", "dark": "#000", "light": "#000"},
    {"micro": True, "version": 3, "mask": 1, "boost_ec": True}, {"version": 9, "min_size": 0},
]


@pytest.mark.parametrize("text", HOSTILE_TEXTS, ids=[f"{i}-{type(t).__name__}" for i, t in enumerate(HOSTILE_TEXTS)])
def test_hostile_texts_answered_like_raw_then_golden(text: Any) -> None:
    for native, raw in ((qrglue.native.png, qrglue.raw.png), (qrglue.native.svg, qrglue.raw.svg),
                        (qrglue.native.matrix, qrglue.raw.matrix), (qrglue.native.text, qrglue.raw.text)):
        assert outcome(native, text) == outcome(raw, text)
        assert outcome(native, text, min_size=0) == outcome(raw, text, min_size=0)
    assert outcome(qrglue.native.png_repeat, text, 1) == outcome(qrglue.raw.Generator().png_repeat, text, 1)
    assert_golden()


@pytest.mark.parametrize("options", HOSTILE_OPTIONS, ids=lambda o: repr(sorted(o))[:40])
def test_hostile_options_answered_like_raw_then_golden(options: dict[str, Any]) -> None:
    for text in ("x", "", "\ud800"):
        assert outcome(qrglue.native.png, text, **options) == outcome(qrglue.raw.png, text, **options)
        assert outcome(qrglue.native.svg, text, **options) == outcome(qrglue.raw.svg, text, **options)
        assert outcome(qrglue.native.matrix, text, **options) == outcome(qrglue.raw.matrix, text, **options)
        assert outcome(qrglue.native.text, text, **options) == outcome(qrglue.raw.text, text, **options)
    assert_golden()


HOSTILE_STYLES: list[Any] = [None, b"ascii", 0, 2, 2**64, -1, True, 1.0, ["ascii"], "ASCII", "ascii ", "ascii\x00",
                             "\ud800", "", BadRepr(), Text("ascii"), Text("sepia"), object()]


@pytest.mark.parametrize("style", HOSTILE_STYLES, ids=[f"{i}-{type(s).__name__}" for i, s in enumerate(HOSTILE_STYLES)])
def test_hostile_styles_answered_like_raw_then_golden(style: Any) -> None:
    inputs: list[tuple[str, dict[str, Any]]] = [
        ("x", {}), ("x", {"min_size": 0}), ("", {}), ("\ud800", {}), ("a" * 3000, {"ec_level": "high"})]
    for text, options in inputs:
        assert outcome(qrglue.native.text, text, style=style, **options) == outcome(
            qrglue.raw.text, text, style=style, **options)
    # The extension checks the style itself (last), whoever calls it.
    defaults = ("low", 200, 4, None, "#000", "#fff", False, None, None, None, False, False)
    assert outcome(qrglue._native.text, "x", style, *defaults) == outcome(qrglue.raw.text, "x", style=style)
    bad_min_size = ("low", 0, 4, None, "#000", "#fff", False, None, None, None, False, False)
    assert outcome(qrglue._native.text, "x", style, *bad_min_size)[:2] == ("QrError", "invalid-options")
    assert_golden()


@pytest.mark.parametrize("args", [(-1,), (2**32,), (2**64,), (True,), (1.0,), (None,), ("3",)])
def test_hostile_probe_arguments(args: tuple[Any, ...]) -> None:
    raw = qrglue.raw.Generator()
    assert outcome(qrglue.native.produce, *args) == outcome(raw.produce, *args)
    assert outcome(qrglue.native.png_repeat, "x", *args) == outcome(raw.png_repeat, "x", *args)
    assert_golden()


def test_probes_match_the_raw_path() -> None:
    raw = qrglue.raw.Generator()
    qrglue.native.noop()
    blobs: list[Any] = [b"", b"abc", bytearray(1000), memoryview(b"xyz"), bytes(1 << 20)]
    for data in blobs:
        assert qrglue.native.consume(data) == raw.consume(data) == len(data)
    assert qrglue.native.consume([1, 2, 3]) == 3  # type: ignore[arg-type]  # bytes(data), as on the other paths
    for n in (0, 1, 251, 252, 100_000):
        assert qrglue.native.produce(n) == raw.produce(n)
    limit = 16 * 1024 * 1024
    assert len(qrglue.native.produce(limit)) == limit
    assert outcome(qrglue.native.produce, limit + 1) == outcome(raw.produce, limit + 1)
    assert outcome(qrglue.native.png_repeat, "", 3) == outcome(raw.png_repeat, "", 3)
    assert qrglue.native.png_repeat(URL, 0) == raw.png_repeat(URL, 0) == 0


LONG_TEXTS: list[tuple[str, Callable[[], str], str]] = [
    ("7,090 bytes", lambda: "x" * 7090, "data-too-long"),
    ("1 MB", lambda: "a" * 1_000_000, "data-too-long"),
    ("1 MB of 2-byte chars", lambda: "é" * 500_000, "data-too-long"),
    ("1 MB of 4-byte chars", lambda: "\U0001f980" * 250_000, "data-too-long"),
    ("50 MB", lambda: "z" * 50_000_000, "data-too-long"),
    ("50 MB of 2-byte chars", lambda: "é" * 50_000_000, "data-too-long"),
    ("1 MB lone surrogates", lambda: "\ud800" * 1_000_000, "invalid-text"),
    ("50 MB, one surrogate at the end", lambda: "z" * 50_000_000 + "\udfff", "invalid-text"),
]


@pytest.mark.parametrize("label, make_text, kind", LONG_TEXTS, ids=[t[0] for t in LONG_TEXTS])
def test_long_texts_refused_without_a_utf8_copy(label: str, make_text: Callable[[], str], kind: str) -> None:
    # CPython caches a str's UTF-8 form inside the str once something asks
    # for it (PyO3's to_str does), and counts the cache in sys.getsizeof: an
    # unchanged size shows the extension never encoded the text.
    text = make_text()
    size = sys.getsizeof(text)
    for render in (qrglue.native.png, qrglue.native.svg, qrglue.native.matrix, qrglue.native.text):
        with pytest.raises(QrError) as info:
            render(text, min_size=0)  # the text error wins over the options error
        assert info.value.kind == kind, label
        assert sys.getsizeof(text) == size, label
    del text
    assert_golden()


def test_a_short_text_is_encoded_once_control() -> None:
    # The control for the test above: a text that does go to the core gets
    # its UTF-8 form, so "size unchanged" is a real observation.
    text = "".join(["é"] * 100)  # built at run time: a fresh str, no UTF-8 form yet
    size = sys.getsizeof(text)
    qrglue.native.png(text)
    assert sys.getsizeof(text) > size


# A binary payload's length is read before any copy (data-too-long), so 50 MB
# as a bytearray (which the extension would copy: Python code may resize it)
# or as a memoryview (copied by its tobytes) leave the process's peak RSS
# where it was; the control copies the same bytes once and raises it. In a
# subprocess: a peak RSS is only a clean observation in a fresh process.
PAYLOAD_COPY_SCRIPT = """
import json
import qrglue.native
from qrglue import QrError

def peak_kib():
    # This process's own peak (VmHWM: its memory map's, new at exec), not
    # ru_maxrss, which keeps the forking parent's peak across the exec.
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))

big = bytearray(50_000_000)
for i in range(0, len(big), 4096):
    big[i] = 0x37  # every page resident, without a second 50 MB to build it from
before = peak_kib()
kinds = set()
for data in (big, memoryview(big)[1:], memoryview(big).cast("c"), bytes(7090)):
    for render in (qrglue.native.png, qrglue.native.svg, qrglue.native.matrix, qrglue.native.text):
        try:
            render(data, min_size=0)
        except QrError as e:
            kinds.add(e.kind)
after = peak_kib()
copy = bytes(big)
control = peak_kib()
print(json.dumps({"kinds": sorted(kinds), "before": before, "after": after, "control": control}))
"""


def test_long_payloads_refused_without_a_copy() -> None:
    done = subprocess.run([sys.executable, "-c", PAYLOAD_COPY_SCRIPT], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["kinds"] == ["data-too-long"]
    assert report["after"] - report["before"] < 10_000, report  # KiB: no 50 MB copy
    assert report["control"] - report["after"] > 40_000, report  # one copy shows


def test_panic_probe_raises_and_the_next_call_works() -> None:
    for _ in range(3):
        with pytest.raises(qrglue.native.NativePanic, match="the panic probe was called"):
            qrglue.native.panic()
        assert_golden()
    try:
        qrglue.native.panic()
    except Exception as e:  # an Exception (PyO3's own PanicException is a BaseException)
        assert isinstance(e, RuntimeError)
    with pytest.raises(QrError):
        qrglue.native.png("")  # errors still map after a panic


PANIC_SCRIPT = """
import hashlib, json, threading, qrglue.native
caught = []
def panics():
    for _ in range(50):
        try:
            qrglue.native.panic()
        except qrglue.native.NativePanic as e:
            caught.append(str(e))
threads = [threading.Thread(target=panics) for _ in range(4)]
for t in threads: t.start()
for t in threads: t.join()
print(json.dumps({"caught": len(caught), "message": caught[0],
                  "png": hashlib.sha256(qrglue.native.png(URL)).hexdigest()}))
"""


def test_panics_in_a_subprocess_leave_it_running() -> None:
    done = subprocess.run([sys.executable, "-c", f"URL = {URL!r}\n" + PANIC_SCRIPT], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["caught"] == 200
    assert report["message"] == "qrglue native: Rust panicked: qrglue native: the panic probe was called"
    assert report["png"] == GOLDEN["png_sha256"]
    assert "the panic probe was called" in done.stderr  # Rust's panic hook still reports it


def test_threads_run_the_core_in_parallel(hardening_report: list[str]) -> None:
    # With the GIL held through a call, a second thread could not start its
    # call before the first one returned: the four calls' intervals would
    # follow one another. With the GIL released (py.detach) they overlap.
    # Not a speed-up assertion: overlap holds on one core as on many.
    # 4096-pixel images: png_repeat's times is bounded (max_png_repeat_times,
    # 50), so each render must be slow enough for a call of ~150 ms.
    threads, size = 4, 4096
    start = time.perf_counter()
    qrglue.native.png_repeat(URL, 10, min_size=size)
    per_render = (time.perf_counter() - start) / 10
    times = min(50, max(10, int(0.15 / per_render)))  # about 150 ms per call, within the bound
    barrier = threading.Barrier(threads)
    intervals: dict[int, tuple[float, float]] = {}
    lengths: dict[int, int] = {}

    def work(index: int) -> None:
        barrier.wait()
        begin = time.perf_counter()
        lengths[index] = qrglue.native.png_repeat(URL, times, min_size=size)
        intervals[index] = (begin, time.perf_counter())

    workers = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    assert set(lengths.values()) == {len(qrglue.native.png(URL, min_size=size))}
    latest_start = max(begin for begin, _ in intervals.values())
    earliest_end = min(end for _, end in intervals.values())
    # Every call was still running when the last one started.
    assert latest_start < earliest_end, intervals
    wall = max(end for _, end in intervals.values()) - min(begin for begin, _ in intervals.values())
    busiest = max(end - begin for begin, end in intervals.values())
    hardening_report.append(
        f"python-native: {threads} threads x png_repeat({times}) overlap: all running together for "
        f"{(earliest_end - latest_start) * 1e3:.0f} ms; wall {wall * 1e3:.0f} ms vs "
        f"{threads} x {per_render * times * 1e3:.0f} ms serial (longest call {busiest * 1e3:.0f} ms)")


def test_missing_extension_says_how_to_get_it() -> None:
    # As if only the qrglue wheel were installed (sys.modules[name] = None
    # makes the import fail like an absent module).
    script = ("import sys\nsys.modules['qrglue._native'] = None\n"
              "try:\n    import qrglue.native\nexcept ImportError as e:\n    print(e)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "pip install qrglue-native" in done.stdout  # the wheel's name, for a user of the packages
    assert "pip install ./hosts/python/native" in done.stdout
    assert "just build-python" in done.stdout


@pytest.mark.slow
def test_both_wheels_install_into_a_fresh_venv(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    for project in (HOST_DIR, NATIVE_DIR):
        # Both backends (setuptools, maturin) are pinned in the dev venv: no isolation, nothing fetched.
        subprocess.run([sys.executable, "-m", "pip", "wheel", "--disable-pip-version-check", "-q", "--no-deps",
                        "--no-build-isolation", "-w", str(wheels), str(project)], check=True,
                       env={**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"})
    (main_wheel,) = wheels.glob("qrglue-*.whl")
    (native_wheel,) = wheels.glob("qrglue_native-*.whl")
    main_names = zipfile.ZipFile(main_wheel).namelist()
    assert "qrglue/native.py" in main_names
    assert not [n for n in main_names if n.endswith((".so", ".pyd", ".dylib"))], main_names  # pure Python + wasm
    native_names = [n for n in zipfile.ZipFile(native_wheel).namelist() if ".dist-info/" not in n]
    assert native_names == ["qrglue/_native.abi3.so"]  # no qrglue/__init__.py: that is qrglue's

    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    pip = [str(python), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, str(main_wheel), "wasmtime==50.0.1"], check=True)
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {"PATH": "/usr/bin:/bin", "QRGLUE_CACHE_DIR": str(tmp_path / "cache")}

    missing = subprocess.run([str(python), "-c", "import qrglue.native"], cwd=work, capture_output=True, text=True,
                             env=env)
    assert missing.returncode != 0
    assert "pip install ./hosts/python/native" in missing.stderr

    subprocess.run([*pip, str(native_wheel)], check=True)  # its dependency, qrglue==0.2.0, is installed
    script = (
        "import hashlib, json, qrglue, qrglue._native, qrglue.native\n"
        f"url = {URL!r}\n"
        "print(json.dumps({'file': qrglue._native.__file__, 'package': qrglue.__file__,\n"
        "  'native': hashlib.sha256(qrglue.native.png(url)).hexdigest(),\n"
        "  'component': hashlib.sha256(qrglue.png(url)).hexdigest()}))\n"
    )
    done = subprocess.run([str(python), "-c", script], cwd=work, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert Path(report["file"]).is_relative_to(env_dir) and Path(report["package"]).is_relative_to(env_dir)
    assert Path(report["file"]).parent == Path(report["package"]).parent  # one qrglue package, two distributions
    assert report["native"] == report["component"] == GOLDEN["png_sha256"]
