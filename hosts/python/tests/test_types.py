"""The package's types catch what the contract refuses: mypy --strict
rejects an EC level, a text style or an error kind that is not one of the
contract's (the `Literal` types generated from its option table), and an
unknown keyword, and accepts the right ones."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

GOOD = """
import qrglue
png: bytes = qrglue.png("x", ec_level="medium", scale=2, micro=False)
art: str = qrglue.text("x", style="ascii")
try:
    qrglue.png("")
except qrglue.QrError as e:
    empty: bool = e.kind == "empty-text"
"""

BAD = """
import qrglue
qrglue.png("x", ec_level="M")
qrglue.text("x", style="sepia")
qrglue.png("x", error="m")
def kind(e: qrglue.QrError) -> bool:
    return e.kind == "empty-txt"
"""


def mypy(code: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    source = tmp_path / "snippet.py"
    source.write_text(code, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--strict-equality", "--no-incremental",
                           "--config-file", "/dev/null", str(source)], capture_output=True, text=True, check=False)


def test_the_right_values_type_check(tmp_path: Path) -> None:
    done = mypy(GOOD, tmp_path)
    assert done.returncode == 0, done.stdout


def test_values_the_contract_refuses_do_not_type_check(tmp_path: Path) -> None:
    done = mypy(BAD, tmp_path)
    lines = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert [line.split(":")[1] for line in lines] == ["3", "4", "5", "7"], done.stdout
    assert "'M'" in lines[0] and "'sepia'" in lines[1] and '"error"' in lines[2], done.stdout
    assert "empty-txt" in lines[3], done.stdout
