"""Shared fixtures: the golden vectors, one generator per path, a QR reader
(zxing-cpp) and the figures the hardening tests report at the end of the run."""

from __future__ import annotations

import functools
import io
import json
from collections.abc import Callable
from typing import Any

import pytest
import zxingcpp
from PIL import Image

import qrglue
import qrglue.native
import qrglue.raw

# The corpus loader and the WIT -> Python option mapping live in
# support/corpus.py (conformance/runner.py uses the same ones); tests import
# them from there.
from corpus import load_cases, load_expected, vectors_dir
from qrglue import _common

VECTORS = vectors_dir()
CASES: list[dict[str, Any]] = load_cases(VECTORS)
EXPECTED: dict[str, dict[str, Any]] = load_expected(VECTORS)
REFERENCE_URL_CASE = next(c for c in CASES if c["id"] == "ref-02")
# The ten reference texts (ref-01..ref-10) with their golden digests.
REFERENCE_CASES = [next(c for c in CASES if c["id"] == f"ref-{i:02d}") for i in range(1, 11)]

# The path name -> a factory for that path's Generator. "component" and "raw"
# are the defaults (the fast glues on the pinned wasmtime-py); the "-stock"
# paths use wasmtime-py's own calls, kept equivalent by these same tests.
# "native" is the PyO3 extension (qrglue.native): no wasm, so no `trap` and
# no `memory_pages`; tests of those take `wasm_gen` (its own tests:
# test_native.py).
WASM_PATHS: dict[str, Callable[[], Any]] = {
    "component": qrglue.Generator,
    "component-stock": lambda: qrglue.Generator(glue="stock"),
    "raw": qrglue.raw.Generator,
    "raw-stock": lambda: qrglue.raw.Generator(glue="stock"),
}
PATHS: dict[str, Callable[[], Any]] = {**WASM_PATHS, "native": qrglue.native.Generator}


def checked(ec: int = 0, min_size: int = 200, quiet_zone: int = 4, scale: int | None = None,
            dark: int = 0x000000FF, light: int = 0xFFFFFFFF, symbol: _common.Symbol | None = None) -> _common.Options:
    """Options as a path's calls take them, past the host's checks (so tests
    can hand the guest values the host would refuse)."""
    return _common.Options(ec, min_size, quiet_zone, scale, dark, light, symbol)


@pytest.fixture(scope="module", params=sorted(PATHS))
def gen(request: pytest.FixtureRequest) -> Any:
    return PATHS[request.param]()


@pytest.fixture(scope="module", params=sorted(WASM_PATHS))
def wasm_gen(request: pytest.FixtureRequest) -> Any:
    """A generator of a wasm path: one with a guest to trap and a linear memory."""
    return WASM_PATHS[request.param]()


@functools.cache
def read_code(png: bytes) -> tuple[str, str, str, int | None, str]:
    """(text, format, version, mask, EC level) of the one code zxing-cpp
    finds in `png`: format "QRCode" or "MicroQRCode"; version, mask and level
    as zxing reports them in its `extra` ("Version": "5" or "M2", "DataMask",
    "ECLevel": "L"; "" or None where it reports none). Only (Micro) QR codes
    are looked for: a row of modules can also pass for a short ITF barcode."""
    results = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)), formats=QR_FORMATS)
    assert len(results) == 1, f"{len(results)} codes read"
    found = results[0]
    assert found.format in (zxingcpp.BarcodeFormat.QRCode, zxingcpp.BarcodeFormat.MicroQRCode)
    # zxing-cpp 3.1's `extra` is a dict (typed as its JSON str, which older releases gave).
    raw_extra: Any = found.extra
    extra: dict[str, Any] = raw_extra if isinstance(raw_extra, dict) else json.loads(raw_extra or "{}")
    return (str(found.text), found.format.name, str(extra.get("Version", "")), extra.get("DataMask"),
            str(extra.get("ECLevel", "")))


QR_FORMATS = zxingcpp.BarcodeFormats((zxingcpp.BarcodeFormat.QRCode, zxingcpp.BarcodeFormat.MicroQRCode))


def reader_text(png: bytes) -> str:
    """The text zxing-cpp shows for the one (Micro) QR code in `png`."""
    return read_code(png)[0]


@functools.cache
def reader_bytes(png: bytes) -> bytes:
    """The bytes zxing-cpp decodes from the one (Micro) QR code in `png`:
    what a binary payload must read back as (its `text` is zxing's guess at
    an encoding, for display)."""
    results = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)), formats=QR_FORMATS)
    assert len(results) == 1, f"{len(results)} codes read"
    return bytes(results[0].bytes)


@functools.cache
def reader_eci_prefix(png: bytes) -> bytes:
    """What zxing-cpp's ECI text mode (TextMode.HexECI) puts before the
    data of the one (Micro) QR code in `png`: its symbology identifier and,
    when the symbol has an ECI designator, that designator: b"]Q2\\000026"
    (ECI present, 26: UTF-8) or b"]Q1" (none). (zxing-cpp's
    `symbology_identifier` attribute says "]Q1" either way.)"""
    results = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)), formats=QR_FORMATS,
                                     text_mode=zxingcpp.TextMode.HexECI)
    assert len(results) == 1, f"{len(results)} codes read"
    with_eci = bytes.fromhex(str(results[0].text))
    return with_eci[:10] if with_eci.startswith(b"]Q2") else with_eci[:3]


ECI_UTF8_PREFIX = b"]Q2\\000026"


_REPORT = pytest.StashKey[list[str]]()


@pytest.fixture(scope="session")
def hardening_report(request: pytest.FixtureRequest) -> list[str]:
    """Lines printed after the run (memory pages, RSS, call counts), so CI logs show them."""
    return request.config.stash.setdefault(_REPORT, [])


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    lines = config.stash.get(_REPORT, [])
    if lines:
        terminalreporter.section("qrglue hardening figures")
        for line in lines:
            terminalreporter.write_line(line)
