"""Loading the two .wasm files: one shared Engine, compiled code cached on disk.

Compiling the component takes ~80 ms; deserializing wasmtime's own serialized
form takes well under a millisecond. The cache lives in a per-user folder
($QRGLUE_CACHE_DIR, else $XDG_CACHE_HOME/qrglue, else ~/.cache/qrglue) and is
keyed by the wasmtime-py version and the sha256 of the .wasm, so a new guest or
a new wasmtime never meets stale code.

Why the care: `deserialize` trusts its input completely (it maps machine code
and runs it; wasmtime documents it as unsafe for untrusted bytes). So we only
load files this package wrote: the folder is created 0700 and must be owned by
us and not writable by anyone else, and every file has a sidecar holding the
sha256 of the exact bytes we serialized, checked before loading. The digest
catches truncated or corrupted files (a crash mid-write, a full disk); the
ownership/permission check is what keeps other users out. Anything that fails
a check is ignored and recompiled, never trusted.

Start-up: only what the first call needs is imported. wasmtime's component
API is imported by `component()` alone (the raw path never needs it), the
wasmtime-py version is read from its dist-info folder name instead of through
importlib.metadata (whose imports cost tens of ms), and tempfile is imported
only to write the cache. Hashing the .wasm for the cache key costs ~0.15 ms
(sha256 of ~180 KB), so the key stays the content hash: a key from the file's
size and mtime would be cheaper still but could meet stale code.
"""

from __future__ import annotations

import hashlib
import os
import stat
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar

import wasmtime

if TYPE_CHECKING:
    from wasmtime import component as wc

COMPONENT_FILE = "qrglue.component.wasm"
RAW_FILE = "qrglue.raw.wasm"


class _Compiled(Protocol):
    def serialize(self) -> bytearray: ...


_T = TypeVar("_T", bound=_Compiled)

# The wasmtime-py version the fast glues (_fastglue.py, _rawcore.py) are
# written and tested against; on any other they switch themselves off.
SUPPORTED_WASMTIME = "50.0.1"

_wasmtime_version: str | None = None


def wasmtime_version() -> str:
    """The installed wasmtime-py version (it has no __version__)."""
    global _wasmtime_version
    if _wasmtime_version is None:
        _wasmtime_version = _installed_version("wasmtime", os.path.dirname(os.path.dirname(wasmtime.__file__)))
    return _wasmtime_version


def _installed_version(distribution: str, folder: str) -> str:
    """The version in the `{name}-{version}.dist-info` folder installers
    create next to the package (the wheel spec's naming), else importlib.metadata's answer."""
    prefix, suffix = f"{distribution}-", ".dist-info"
    try:
        found = [n[len(prefix):-len(suffix)] for n in os.listdir(folder) if n.startswith(prefix) and n.endswith(suffix)]
    except OSError:
        found = []
    if len(found) == 1:
        return found[0]
    import importlib.metadata

    return importlib.metadata.version(distribution)

_engine: wasmtime.Engine | None = None
_component: wc.Component | None = None
_raw_module: wasmtime.Module | None = None
_lock = threading.Lock()


def engine() -> wasmtime.Engine:
    """The Engine every Store in this process uses (Engines are thread-safe)."""
    global _engine
    with _lock:
        if _engine is None:
            _engine = engine_without_concurrency()
        return _engine


def _engine_tag() -> str:
    """Part of the compiled-code cache key: wasmtime refuses code serialized by
    an engine whose concurrency support differs, so the key names the setting
    and a build before this one (or another package sharing the folder) never
    meets ours."""
    return "nocc" if _concurrency_support_set() is not None else "default"


def _concurrency_support_set() -> Callable[..., None] | None:
    from wasmtime import _bindings

    return getattr(_bindings, "wasmtime_config_concurrency_support_set", None)


def engine_without_concurrency() -> wasmtime.Engine:
    """wasmtime's default Engine with `concurrency_support` off (issue 34).

    Every call here is synchronous, and wasmtime-py's libwasmtime is built
    with component-model-async, which turns the option on by default: every
    Store then sets up the Component Model's async state and every component
    call goes through its bookkeeping. wasmtime-py has no Config property for
    it; its ctypes bindings have the C API's
    `wasmtime_config_concurrency_support_set` (50.0.1). Where a wasmtime-py
    lacks it, the default engine."""
    set_support = _concurrency_support_set()
    if set_support is None:
        return wasmtime.Engine()
    config = wasmtime.Config()
    set_support(config.ptr(), False)
    return wasmtime.Engine(config)


def cache_dir() -> Path | None:
    """The compiled-code cache folder, or None when caching is switched off
    (QRGLUE_CACHE_DIR set to the empty string)."""
    explicit = os.environ.get("QRGLUE_CACHE_DIR")
    if explicit is not None:
        return Path(explicit) if explicit else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "qrglue"


def wasm_bytes(name: str) -> bytes:
    """The packaged .wasm (copied into the package by `just build-python`)."""
    with open(os.path.join(os.path.dirname(__file__), name), "rb") as f:
        return f.read()


def component() -> wc.Component:
    """The compiled component, shared by every Generator in the process."""
    global _component
    if _component is None:
        from wasmtime import component as wc

        loaded = _load(COMPONENT_FILE, wc.Component, wc.Component.deserialize)
        with _lock:  # two threads may both load; every caller gets the first
            if _component is None:
                _component = loaded
    return _component


def raw_module() -> wasmtime.Module:
    """The compiled raw-ABI module, shared by every raw Generator in the process."""
    global _raw_module
    if _raw_module is None:
        loaded = _load(RAW_FILE, wasmtime.Module, wasmtime.Module.deserialize)
        with _lock:
            if _raw_module is None:
                _raw_module = loaded
    return _raw_module


def _load(name: str, compile: Callable[[wasmtime.Engine, bytes], _T],
          deserialize: Callable[[wasmtime.Engine, bytes], _T]) -> _T:
    """Deserialize `name` from the cache, else compile it (and cache that)."""
    eng = engine()
    wasm = wasm_bytes(name)
    folder = cache_dir()
    loaded: _T | None = None
    cached_path = None
    if folder is not None:
        key = f"{name}.{wasmtime_version()}.{_engine_tag()}.{hashlib.sha256(wasm).hexdigest()[:32]}.cwasm"
        cached_path = folder / key
        loaded = _read_cached(eng, cached_path, deserialize)
    if loaded is None:
        loaded = compile(eng, wasm)
        if cached_path is not None:
            _write_cached(cached_path, loaded.serialize())
    return loaded


def _private_to_us(path: Path) -> bool:
    st = path.stat()
    owner_ok = not hasattr(os, "getuid") or st.st_uid == os.getuid()
    return owner_ok and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _read_cached(eng: wasmtime.Engine, path: Path,
                 deserialize: Callable[[wasmtime.Engine, bytes], _T]) -> _T | None:
    digest_path = path.with_suffix(".sha256")
    try:
        if not (_private_to_us(path.parent) and _private_to_us(path) and _private_to_us(digest_path)):
            return None
        expected = digest_path.read_text().strip()
        data = path.read_bytes()
    except OSError:
        return None
    if hashlib.sha256(data).hexdigest() != expected:
        return None
    try:
        # Deserialize the bytes we just checked (not the file again: no race).
        return deserialize(eng, data)
    except wasmtime.WasmtimeError:
        return None  # e.g. an engine with other settings: recompile, overwrite


def _write_cached(path: Path, data: bytes | bytearray) -> None:
    """Write data then its digest, each atomically (temp file + rename), so a
    reader sees either nothing, or a complete file whose digest matches."""
    import tempfile

    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _private_to_us(path.parent):
            return
        for target, payload in ((path, bytes(data)),
                                (path.with_suffix(".sha256"), hashlib.sha256(data).hexdigest().encode())):
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(payload)
                os.replace(tmp, target)
            except BaseException:
                os.unlink(tmp)
                raise
    except OSError:
        pass  # a read-only home or a full disk only costs the compile time
