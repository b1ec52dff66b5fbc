"""The wheel carries both .wasm files and works from a fresh venv, outside the source tree."""

from __future__ import annotations

import json
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from conftest import EXPECTED

HOST_DIR = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_wheel_installs_and_runs_from_a_fresh_venv(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--disable-pip-version-check", "-q", "--no-deps",
                    "--no-build-isolation", "-w", str(wheels), str(HOST_DIR)], check=True)
    (wheel,) = wheels.glob("qrglue-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for packaged in ("qrglue/qrglue.component.wasm", "qrglue/qrglue.raw.wasm", "qrglue/py.typed"):
        assert packaged in names

    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    # wasmtime comes from the registry (or pip's cache), pinned like the dev venv.
    subprocess.run([str(python), "-m", "pip", "install", "--disable-pip-version-check", "-q",
                    str(wheel), "wasmtime==50.0.1"], check=True)

    work = tmp_path / "elsewhere"
    work.mkdir()
    script = (
        "import hashlib, json, qrglue, qrglue.raw\n"
        "open('x.png', 'wb').write(qrglue.png('https://www.reddit.com/r/rustjerk/top/?t=all'))\n"
        "print(json.dumps({'file': qrglue.__file__,\n"
        "  'png': hashlib.sha256(open('x.png', 'rb').read()).hexdigest(),\n"
        "  'raw': hashlib.sha256(qrglue.raw.png('https://www.reddit.com/r/rustjerk/top/?t=all')).hexdigest()}))\n"
    )
    done = subprocess.run([str(python), "-c", script], cwd=work, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "QRGLUE_CACHE_DIR": str(tmp_path / "cache")})
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert Path(report["file"]).is_relative_to(env_dir)  # not the source tree
    assert report["png"] == report["raw"] == EXPECTED["ref-02"]["png_sha256"]
