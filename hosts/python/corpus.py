"""The conformance corpus as the Python host reads it: shared by
conformance_runner.py and the pytest suite, so there is one loader and one
mapping from a case's WIT option names to the Python keywords.

Corpus format: tests/conformance/README.md. The folder is $QRGLUE_VECTORS_DIR
if set, else tests/vectors at the repo root.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import qrglue

REPO = Path(__file__).resolve().parents[2]

# WIT record field -> Python keyword of qrglue.png / svg / matrix / text.
_OPTION_KEYWORDS = {"ec-level": "ec_level", "min-size": "min_size", "quiet-zone": "quiet_zone", "scale": "scale",
                    "dark": "dark", "light": "light", "micro": "micro", "version": "version",
                    "min-version": "min_version", "mask": "mask", "boost-ec": "boost_ec", "eci": "eci",
                    "view-box-only": "view_box_only", "title": "title", "class": "svg_class"}
# The SVG options' keywords (WIT `svg-options`): svg's own, passed to it alone.
SVG_KEYWORDS = ("view_box_only", "title", "svg_class")


def vectors_dir() -> Path:
    configured = os.environ.get("QRGLUE_VECTORS_DIR")
    return Path(configured) if configured else REPO / "tests" / "vectors"


def load_cases(folder: Path | None = None) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = _read_json(folder, "cases.json")["cases"]
    return cases


def load_expected(folder: Path | None = None) -> dict[str, dict[str, Any]]:
    expected: dict[str, dict[str, Any]] = _read_json(folder, "expected.json")
    return expected


def _read_json(folder: Path | None, name: str) -> Any:
    return json.loads(((folder or vectors_dir()) / name).read_text(encoding="utf-8"))


def case_input(case: dict[str, Any]) -> str | bytes:
    """What the case encodes, as the API takes it: its text (`case_text`), or
    for a `data_hex` case the binary payload's bytes (hex-decoded), which the
    API routes to the guests' `*-bytes` generators."""
    if "data_hex" in case:
        return bytes.fromhex(case["data_hex"])
    return case_text(case)


def case_text(case: dict[str, Any]) -> str:
    """The case's text, built only when needed (a `text_repeat` can be 50 MB).
    json.loads keeps "\\ud800" escapes as lone surrogates: passed on unchanged.
    A `data_hex` case has no text (ValueError): see `case_input`."""
    if "data_hex" in case:
        raise ValueError(f"case {case['id']} is a binary payload (data_hex), not a text: use case_input")
    if "text_repeat" in case:
        unit: str = case["text_repeat"]["unit"]
        return unit * int(case["text_repeat"]["count"])
    text: str = case["text"]
    return text


def python_options(wit_options: dict[str, Any]) -> dict[str, Any]:
    """Only the options given, so the API's own defaults are exercised.
    An unknown option name is a corpus error (KeyError), not something to skip."""
    return {_OPTION_KEYWORDS[name]: value for name, value in wit_options.items()}


def case_options(case: dict[str, Any]) -> dict[str, Any]:
    """The case's options as keywords for qrglue.png / svg / matrix / text,
    the SVG options left out (`case_svg_options`: svg's alone)."""
    options = python_options(case.get("options", {}))
    return {k: v for k, v in options.items() if k not in SVG_KEYWORDS}


def case_svg_options(case: dict[str, Any]) -> dict[str, Any]:
    """The case's SVG options (`view-box-only`, `title`, `class`) as keywords
    of qrglue.svg, which it takes besides `case_options`."""
    options = python_options(case.get("options", {}))
    return {k: v for k, v in options.items() if k in SVG_KEYWORDS}


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def matrix_sha256(matrix: qrglue.QrMatrix) -> str:
    """The README's matrix digest: the width as a 4-byte little-endian u32,
    then the packed modules."""
    return sha256(matrix.width.to_bytes(4, "little") + matrix.modules)


class Outputs(Protocol):
    """What `outcome` calls: a path's Generator, or a module with the same functions."""

    @property
    def png(self) -> Callable[..., bytes]: ...
    @property
    def svg(self) -> Callable[..., str]: ...
    @property
    def matrix(self) -> Callable[..., qrglue.QrMatrix]: ...
    @property
    def text(self) -> Callable[..., str]: ...


def outcome(gen: Outputs, case: dict[str, Any]) -> dict[str, Any]:
    """The README's outcome for one case: the digests of every output (png,
    svg with the case's SVG options, matrix, text in each style), or the error (kind and message,
    `str(error)`) that png, svg, matrix and text in every style all give;
    if they do not all give the same answer, the "outputs-disagree" marker."""
    given, options, svg_options = case_input(case), case_options(case), case_svg_options(case)
    png, matrix = (_render(render, given, options) for render in (gen.png, gen.matrix))
    svg = _render(gen.svg, given, {**options, **svg_options})
    texts = {style: _render(gen.text, given, {**options, "style": style}) for style in qrglue.TEXT_STYLES}
    if isinstance(png, bytes) and isinstance(svg, str) and isinstance(matrix, qrglue.QrMatrix) \
            and all(isinstance(drawn, str) for drawn in texts.values()):
        return {"png_sha256": sha256(png), "png_bytes": len(png), "svg_sha256": sha256(svg.encode("utf-8")),
                "matrix_sha256": matrix_sha256(matrix),
                "text_sha256": {style: sha256(drawn.encode("utf-8")) for style, drawn in texts.items()}}
    first, *others = (png, svg, matrix, *texts.values())
    if isinstance(first, dict) and all(other == first for other in others):
        return first
    return {"error": "outputs-disagree"}


def _render(render: Callable[..., Any], given: str | bytes, options: dict[str, Any]) -> Any:
    """The rendered bytes, str or matrix, or an error outcome."""
    try:
        return render(given, **options)
    except qrglue.QrError as e:
        return {"error": e.kind, "message": str(e)}
    except Exception as e:
        return {"error": f"unexpected {type(e).__name__}: {e}"}
