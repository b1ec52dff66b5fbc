"""`just test-dist` (after `just dist`): the two wheels of target/dist/, as a
user installs them: `pip install` into a fresh venv (wasmtime from the
registry, at the dev venv's pin), run from a directory outside the repository.
qrglue (component), qrglue.raw and qrglue.native all give the golden PNG and
SVG of the reference URL (and the PNG of its bytes as a binary payload), each
imported from the venv, never from src/.

Outside tests/ on purpose: `just test-python` runs without target/dist."""

from __future__ import annotations

import json
import platform
import re
import subprocess
import venv
import zipfile
from pathlib import Path

HOST_DIR = Path(__file__).resolve().parents[1]
REPO = HOST_DIR.parents[1]
DIST = REPO / "target" / "dist"
_version = re.search(r'^version = "([^"]+)"', (HOST_DIR / "pyproject.toml").read_text(), re.M)
assert _version is not None
VERSION = _version[1]
WASMTIME = next(line for line in (HOST_DIR / "requirements-dev.txt").read_text().splitlines()
                if line.startswith("wasmtime=="))
GOLDEN = json.loads((REPO / "tests" / "vectors" / "expected.json").read_text())["ref-02"]
URL = "https://www.reddit.com/r/rustjerk/top/?t=all"


def wheels(machine: str = platform.machine()) -> tuple[Path, Path]:
    """qrglue's wheel and qrglue_native's for `machine` (this one's; aarch64's in test_installed_arm64.py)."""
    pure = DIST / f"qrglue-{VERSION}-py3-none-any.whl"
    native = list(DIST.glob(f"qrglue_native-{VERSION}-cp310-abi3-*_{machine}.whl"))
    assert pure.is_file(), f"{pure}: run `just dist`"
    assert len(native) == 1, (f"one abi3 qrglue_native {VERSION} {machine} wheel in {DIST}, not {native}: "
                              "run `just dist`")
    return pure, native[0]


def test_the_wheels_hold_what_they_should() -> None:
    pure, native = wheels()
    with zipfile.ZipFile(pure) as archive:
        names = archive.namelist()
        for name in ("component", "raw"):
            # The guests as `just build-wasm` built them, byte for byte.
            built = REPO / "target" / "wasm" / f"qrglue.{name}.wasm"
            assert archive.read(f"qrglue/qrglue.{name}.wasm") == built.read_bytes()
        metadata = archive.read(f"qrglue-{VERSION}.dist-info/METADATA").decode()
    assert "qrglue/native.py" in names and "qrglue/py.typed" in names
    assert not [n for n in names if n.endswith((".so", ".pyd", ".dylib"))], names  # pure Python + wasm
    assert re.search(r"^Requires-Dist: wasmtime", metadata, re.M), metadata

    with zipfile.ZipFile(native) as archive:
        names = archive.namelist()
        metadata = archive.read(f"qrglue_native-{VERSION}.dist-info/METADATA").decode()
        tags = archive.read(f"qrglue_native-{VERSION}.dist-info/WHEEL").decode()
    assert [n for n in names if ".dist-info/" not in n] == ["qrglue/_native.abi3.so"]  # qrglue/__init__.py is qrglue's
    assert f"Requires-Dist: qrglue=={VERSION}" in metadata
    assert re.search(r"^Tag: cp310-abi3-", tags, re.M), tags


def test_both_wheels_install_into_a_clean_venv_and_give_the_golden_png(tmp_path: Path) -> None:
    pure, native = wheels()
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    pip = [str(python), "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "install", str(pure), str(native), WASMTIME], check=True)
    subprocess.run([*pip, "check"], check=True)  # qrglue-native's qrglue==VERSION is met

    work = tmp_path / "elsewhere"
    work.mkdir()
    script = (
        "import hashlib, json, qrglue, qrglue.raw, qrglue.native, qrglue._native\n"
        "digest = lambda data: hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()\n"
        f"url = {URL!r}\n"
        "paths = {'component': qrglue, 'raw': qrglue.raw, 'native': qrglue.native}\n"
        "print(json.dumps({'files': [qrglue.__file__, qrglue.raw.__file__, qrglue.native.__file__,\n"
        "                            qrglue._native.__file__],\n"
        "  'version': qrglue.__version__,\n"
        "  'png': {name: digest(m.png(url)) for name, m in paths.items()},\n"
        "  'svg': {name: digest(m.svg(url)) for name, m in paths.items()},\n"
        "  'png_of_bytes': {name: digest(m.png(url.encode())) for name, m in paths.items()}}))\n"
    )
    done = subprocess.run([str(python), "-c", script], cwd=work, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "QRGLUE_CACHE_DIR": str(tmp_path / "cache")})
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    site = {Path(f).parent for f in report["files"]}
    assert len(site) == 1 and next(iter(site)).is_relative_to(env_dir), report["files"]  # one qrglue, in the venv
    assert report["files"][3].endswith("_native.abi3.so")
    assert report["version"] == VERSION
    assert report["png"] == dict.fromkeys(("component", "raw", "native"), GOLDEN["png_sha256"])
    assert report["svg"] == dict.fromkeys(("component", "raw", "native"), GOLDEN["svg_sha256"])
    # A binary payload (the *-bytes generators): the URL's bytes give its code.
    assert report["png_of_bytes"] == dict.fromkeys(("component", "raw", "native"), GOLDEN["png_sha256"])
