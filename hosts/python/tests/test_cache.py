"""The compiled-code cache: written once, reused, and never trusted when tampered with."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import EXPECTED

FIRST_CALL = ("import hashlib, qrglue, qrglue.raw; "
              "print(hashlib.sha256(qrglue.png('https://www.reddit.com/r/rustjerk/top/?t=all')).hexdigest()); "
              "print(hashlib.sha256(qrglue.raw.png('https://www.reddit.com/r/rustjerk/top/?t=all')).hexdigest())")


def run_fresh(cache: Path) -> list[str]:
    done = subprocess.run([sys.executable, "-c", FIRST_CALL], capture_output=True, text=True,
                          env={**os.environ, "QRGLUE_CACHE_DIR": str(cache)})
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_cache_is_written_private_and_reused(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    expected = [EXPECTED["ref-02"]["png_sha256"]] * 2
    assert run_fresh(cache) == expected
    compiled = sorted(cache.glob("*.cwasm"))
    assert len(compiled) == 2 and len(list(cache.glob("*.sha256"))) == 2
    assert cache.stat().st_mode & 0o077 == 0
    stamps = [p.stat().st_mtime_ns for p in compiled]
    assert run_fresh(cache) == expected
    assert [p.stat().st_mtime_ns for p in compiled] == stamps  # loaded, not rewritten


def test_tampered_cache_is_recompiled_not_loaded(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    run_fresh(cache)
    for compiled in cache.glob("*.cwasm"):
        data = bytearray(compiled.read_bytes())
        data[len(data) // 2] ^= 0xFF  # would crash or misbehave if deserialized
        compiled.write_bytes(bytes(data))
    tampered = {p: p.read_bytes() for p in cache.glob("*.cwasm")}
    assert run_fresh(cache) == [EXPECTED["ref-02"]["png_sha256"]] * 2
    # the bad files were recompiled and replaced, not loaded
    assert all(p.read_bytes() != data for p, data in tampered.items())


def test_group_writable_cache_is_ignored(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    run_fresh(cache)
    os.chmod(cache, 0o777)
    assert run_fresh(cache) == [EXPECTED["ref-02"]["png_sha256"]] * 2


def test_empty_cache_dir_setting_disables_cache(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", FIRST_CALL], capture_output=True, text=True,
                          env={**os.environ, "QRGLUE_CACHE_DIR": ""}, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [EXPECTED["ref-02"]["png_sha256"]] * 2


def test_wasmtime_version_is_the_installed_distributions() -> None:
    import importlib.metadata

    from qrglue import _loader

    truth = importlib.metadata.version("wasmtime")
    assert _loader.wasmtime_version() == truth
    # No dist-info folder where it is looked for: importlib.metadata answers.
    assert _loader._installed_version("wasmtime", "/nonexistent") == truth


def test_import_loads_only_what_the_first_call_needs() -> None:
    # Checked in a fresh interpreter: none of these is imported by `import
    # qrglue.raw` (nor by wasmtime itself), so none costs start-up time.
    script = ("import sys, qrglue, qrglue.raw; "
              "print(' '.join(m for m in ('importlib.metadata', 'importlib.resources', 'tempfile', 'zipfile', "
              "'wasmtime.component', 'qrglue._component', 'qrglue._fastglue') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == []



def test_native_path_loads_no_wasmtime() -> None:
    # docs/python.md says the native path's cold start loads no wasm runtime:
    # `import qrglue.native` and a first png import nothing of wasmtime.
    script = ("import sys, qrglue.native; qrglue.native.png('hi'); "
              "print(' '.join(m for m in sys.modules if m == 'wasmtime' or m.startswith('wasmtime.')))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == []


def test_engine_has_concurrency_support_off() -> None:
    """Every call is synchronous, so the shared Engine leaves out wasmtime's
    concurrency support (issue 34), which wasmtime-py's libwasmtime turns on
    by default: code it compiled does not load into a default Engine, and the
    cache key names the setting, so such a cache file is never looked up."""
    import wasmtime

    from qrglue import _loader

    data = _loader.raw_module().serialize()
    with pytest.raises(wasmtime.WasmtimeError, match="compiled without concurrency support"):
        wasmtime.Module.deserialize(wasmtime.Engine(), data)
    assert wasmtime.Module.deserialize(_loader.engine(), data) is not None
    assert _loader._engine_tag() == "nocc"
