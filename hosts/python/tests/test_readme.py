"""The README's usage example runs as written, and says what it does.

The first ```python block of hosts/python/README.md is executed in a fresh
namespace (a user copying it gets no error), then the values its comments
name are checked, so that a comment cannot drift from the output.
"""
from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def readme_example() -> str:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)
    assert blocks, "README.md has no ```python block"
    return str(blocks[0])


def png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def test_readme_example_runs_and_its_comments_hold(capsys: pytest.CaptureFixture[str]) -> None:
    scope: dict[str, object] = {}
    exec(compile(readme_example(), str(README), "exec"), scope)  # the README's own code
    import qrglue
    import qrglue.native

    out = capsys.readouterr().out
    assert "▄" in out or "▀" in out, "text(..., style='half-blocks-inverted') printed no half blocks"
    assert scope["png2"] == scope["png3"] == qrglue.png("https://example.com"), "component, raw and native differ"
    assert scope["png"] == qrglue.native.png("https://example.com", ec_level="medium", min_size=300, quiet_zone=4)
    matrix = scope["matrix"]
    assert isinstance(matrix, qrglue.QrMatrix) and matrix.width == 25  # comment: QrMatrix(width=25, ...)
    assert scope["dark"] is True  # comment: a finder pattern's corner
    assert qrglue.matrix("12345", micro=True).width == 11  # comment: M1, 11x11 modules
    assert qrglue.matrix("https://example.com", version=5).width == 37  # comment: 37x37
    blue = scope["blue"]
    assert isinstance(blue, bytes) and png_size(blue)[0] == (25 + 2 * 4) * 4  # comment: 4 px a module
    assert str(scope["uri"]).startswith("data:image/png;base64,")
    assert scope["same"] == qrglue.png("https://example.com")
    assert "<title>Our site</title>" in str(scope["fluid"]) and 'class="qr qr-large"' in str(scope["fluid"])
