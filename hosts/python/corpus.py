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
from typing import Any

import qrglue

REPO = Path(__file__).resolve().parents[2]

# WIT record field -> Python keyword of qrglue.png / qrglue.svg.
_OPTION_KEYWORDS = {"ec-level": "ec_level", "min-size": "min_size", "quiet-zone": "quiet_zone"}


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


def case_text(case: dict[str, Any]) -> str:
    """The case's text, built only when needed (a `text_repeat` can be 50 MB).
    json.loads keeps "\\ud800" escapes as lone surrogates: passed on unchanged."""
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
    """The case's options as keywords for qrglue.png / qrglue.svg."""
    return python_options(case.get("options", {}))


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def outcome(png: Callable[..., bytes], svg: Callable[..., str], case: dict[str, Any]) -> dict[str, Any]:
    """The README's outcome for one case: digests, or the error (kind and
    message, `str(error)`) png and svg agree on."""
    text, options = case_text(case), case_options(case)
    png_result, svg_result = (_render(render, text, options) for render in (png, svg))
    if isinstance(png_result, bytes) and isinstance(svg_result, str):
        return {"png_sha256": sha256(png_result), "png_bytes": len(png_result),
                "svg_sha256": sha256(svg_result.encode("utf-8"))}
    if isinstance(png_result, dict) and png_result == svg_result:
        return png_result
    return {"error": "png-svg-disagree"}


def _render(render: Callable[..., Any], text: str, options: dict[str, Any]) -> Any:
    """The rendered bytes or str, or an error outcome."""
    try:
        return render(text, **options)
    except qrglue.QrError as e:
        return {"error": e.kind, "message": str(e)}
    except Exception as e:
        return {"error": f"unexpected {type(e).__name__}: {e}"}
