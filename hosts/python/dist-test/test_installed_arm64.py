"""`just test-dist` (after `just dist`): linux-arm64-gnu's abi3 wheel, cross-built
on this x86_64 machine (tools/arm64/build.sh), RUN by a real arm64 CPython 3.11:
Debian bookworm's python3.11-minimal and libpython3.11-stdlib for arm64 at the
pins of tools/arm64/runtimes.lock (fetched, checked and unpacked by
tools/arm64/runtimes.sh), under Debian's qemu-user with the cross toolchain's
glibc as its sysroot.

The wheels are installed as pip installs them for that platform (this
machine's pip with --platform/--abi for aarch64, into a --target directory):
qrglue's, the arm64 qrglue_native and wasmtime at the dev venv's pin (its
manylinux2014_aarch64 wheel from PyPI). qrglue.native, qrglue (component) and
qrglue.raw all give the golden PNG and SVG of the reference URL.
"""

from __future__ import annotations

import json
import re
import subprocess
import zipfile
from pathlib import Path

from test_installed import GOLDEN, HOST_DIR, REPO, URL, VERSION, WASMTIME, wheels

PYTHON_ROOT = REPO / "target" / "tools" / "arm64" / "python"
SYSROOT = "/usr/aarch64-linux-gnu"
# Debian bookworm's glibc (and the cross toolchain's): the newest manylinux an arm64 bookworm installs.
BOOKWORM_GLIBC = (2, 36)


def glibc_versions(shared_object: bytes, tmp_path: Path) -> list[tuple[int, int]]:
    """The GLIBC_x.y symbol versions the object needs (readelf reads any ELF machine)."""
    path = tmp_path / "object.so"
    path.write_bytes(shared_object)
    out = subprocess.run(["readelf", "-V", "--wide", str(path)], capture_output=True, text=True, check=True).stdout
    return sorted({(int(a), int(b)) for a, b in re.findall(r"\bGLIBC_(\d+)\.(\d+)\b", out)})


def test_arm64_wheel_is_abi3_aarch64_with_an_honest_manylinux_tag(tmp_path: Path) -> None:
    _, native = wheels("aarch64")
    with zipfile.ZipFile(native) as archive:
        names = archive.namelist()
        tags = archive.read(f"qrglue_native-{VERSION}.dist-info/WHEEL").decode()
        metadata = archive.read(f"qrglue_native-{VERSION}.dist-info/METADATA").decode()
        extension = archive.read("qrglue/_native.abi3.so")
    assert [n for n in names if ".dist-info/" not in n] == ["qrglue/_native.abi3.so"]
    assert f"Requires-Dist: qrglue=={VERSION}" in metadata
    # ELF header: 64-bit, little-endian, ET_DYN, EM_AARCH64 (183).
    assert extension[:6] == b"\x7fELF\x02\x01"
    assert int.from_bytes(extension[16:18], "little") == 3
    assert int.from_bytes(extension[18:20], "little") == 183
    # The tag maturin computed is the newest glibc symbol version the extension needs: no newer, no older.
    (tag,) = re.findall(r"^Tag: (.+)$", tags, re.M)
    found = re.fullmatch(r"cp310-abi3-manylinux_(\d+)_(\d+)_aarch64", tag)
    assert found, tag
    needed = glibc_versions(extension, tmp_path)
    assert (int(found[1]), int(found[2])) == needed[-1], (tag, needed)
    assert needed[-1] <= BOOKWORM_GLIBC
    assert native.name == f"qrglue_native-{VERSION}-{tag}.whl"


def test_arm64_python_imports_the_installed_wheels_and_gives_the_golden_png(tmp_path: Path) -> None:
    python = PYTHON_ROOT / "usr" / "bin" / "python3.11"
    assert python.is_file(), f"{python}: run `just test-dist` (tools/arm64/runtimes.sh)"
    pure, native = wheels("aarch64")
    site = tmp_path / "site"
    major, minor = BOOKWORM_GLIBC
    # pip takes no range: every manylinux a glibc 2.36 system installs, newest first.
    platforms = [f"manylinux_{major}_{m}_aarch64" for m in range(minor, 16, -1)] + ["manylinux2014_aarch64"]
    subprocess.run(
        [str(HOST_DIR / ".venv" / "bin" / "pip"), "install", "--disable-pip-version-check", "-q", "--no-deps",
         "--target", str(site), *(f"--platform={p}" for p in platforms), "--python-version", "3.11",
         "--implementation", "cp", "--abi", "abi3", "--abi", "none", "--only-binary=:all:",
         str(pure), str(native), WASMTIME],
        check=True)

    work = tmp_path / "elsewhere"
    work.mkdir()
    script = (
        "import hashlib, json, platform, sys, wasmtime, qrglue, qrglue.raw, qrglue.native, qrglue._native\n"
        "digest = lambda data: hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()\n"
        f"url = {URL!r}\n"
        "paths = {'native': qrglue.native, 'component': qrglue, 'raw': qrglue.raw}\n"
        "print(json.dumps({'machine': platform.machine(), 'python': sys.version.split()[0],\n"
        "  'executable': sys.executable,\n"
        "  'files': [qrglue.__file__, qrglue._native.__file__, wasmtime.__file__],\n"
        "  'png': {name: digest(m.png(url)) for name, m in paths.items()},\n"
        "  'svg': {name: digest(m.svg(url)) for name, m in paths.items()},\n"
        "  'png_of_bytes': {name: digest(m.png(url.encode())) for name, m in paths.items()}}))\n"
    )
    libraries = f"{PYTHON_ROOT}/lib/aarch64-linux-gnu:{PYTHON_ROOT}/usr/lib/aarch64-linux-gnu"
    done = subprocess.run(
        # -E sets the guest's environment only (not qemu's own loader's); -s: no user site-packages.
        ["qemu-aarch64", "-L", SYSROOT, "-E", f"LD_LIBRARY_PATH={libraries}", str(python), "-s", "-c", script],
        cwd=work, capture_output=True, text=True, timeout=300,
        env={"PATH": "/usr/bin:/bin", "PYTHONHOME": str(PYTHON_ROOT / "usr"), "PYTHONPATH": str(site),
             "QRGLUE_CACHE_DIR": str(tmp_path / "cache")})
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert (report["machine"], report["python"]) == ("aarch64", "3.11.2"), report
    assert report["executable"] == str(python)
    assert [Path(f).is_relative_to(site) for f in report["files"]] == [True] * 3, report["files"]
    assert report["files"][1].endswith("_native.abi3.so")
    paths = ("native", "component", "raw")
    assert report["png"] == dict.fromkeys(paths, GOLDEN["png_sha256"])
    assert report["svg"] == dict.fromkeys(paths, GOLDEN["svg_sha256"])
    assert report["png_of_bytes"] == dict.fromkeys(paths, GOLDEN["png_sha256"])
