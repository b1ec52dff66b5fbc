#!/usr/bin/env bash
# Builds the Python host's generated parts (all gitignored): .venv with the
# exact pins of requirements-dev.txt, both .wasm files copied into the package
# (src/qrglue/), an editable install of the package and the native extension
# (qrglue._native, see below). Run from the repo root
# by `just build-python` after `just build-wasm`. Idempotent and quick: pip runs
# only when requirements-dev.txt or pyproject.toml changed since its last run
# (stamp copies in .venv), and a .wasm is copied only when its bytes changed.
# QRGLUE_VERBOSE=1 shows pip's progress and maturin's log.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=../..
pip_quiet=-q
if [ -n "${QRGLUE_VERBOSE:-}" ]; then pip_quiet=; fi
pip() { .venv/bin/pip --disable-pip-version-check $pip_quiet "$@"; }

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi

if ! cmp -s requirements-dev.txt .venv/.requirements-installed; then
  pip install -r requirements-dev.txt
  cp requirements-dev.txt .venv/.requirements-installed
fi

# qrglue.extism.wasm and qrglue.raw-nosimd.wasm: the Extism path (qrglue.extism) and wasm3's module
# (qrglue.wasm3), in a source checkout only (not in the wheel).
for name in component raw extism raw-nosimd; do
  built="$repo/target/wasm/qrglue.$name.wasm"
  packaged="src/qrglue/qrglue.$name.wasm"
  if ! cmp -s "$built" "$packaged"; then
    cp "$built" "$packaged"
  fi
done

# The build backend (setuptools) is pinned in requirements-dev.txt, so the
# editable install runs without build isolation and never fetches it.
if ! cmp -s pyproject.toml .venv/.editable-installed; then
  pip install --no-deps --no-build-isolation -e .
  cp pyproject.toml .venv/.editable-installed
fi

# The native extension qrglue._native (native/: PyO3, built by maturin with
# the Cargo profile `addon`, which unwinds). The wheel goes to
# target/python-native/ and its .so into src/qrglue/ (gitignored), where the
# editable install finds it (an install into site-packages/qrglue/ would not
# be seen: the package is imported from src/). Skipped when none of its
# inputs changed since the last build (stamp in .venv); the .so is replaced
# (renamed over, never rewritten in place) only when its bytes changed.
native_so=src/qrglue/_native.abi3.so
native_stamp=$(cat native/Cargo.toml native/pyproject.toml "$repo/Cargo.toml" "$repo/Cargo.lock" \
  "$repo/guest/core/Cargo.toml" "$repo/guest/http-query/Cargo.toml" \
  $(find native/src "$repo/guest/core/src" "$repo/guest/http-query/src" -type f | sort) | sha256sum)
if [ ! -f "$native_so" ] || [ "$native_stamp" != "$(cat .venv/.native-built 2>/dev/null)" ]; then
  out="$(cd "$repo" && pwd)/target/python-native"
  rm -rf "$out"
  mkdir -p "$out"
  # maturin reports progress even with -q: keep its log, show it on failure.
  if ! (cd native && ../.venv/bin/maturin build -i ../.venv/bin/python --out "$out") >"$out/build.log" 2>&1; then
    cat "$out/build.log" >&2
    exit 1
  fi
  if [ -n "${QRGLUE_VERBOSE:-}" ]; then cat "$out/build.log"; fi
  .venv/bin/python - "$out" "$native_so" <<'PY'
import os, sys, zipfile
from pathlib import Path
out, target = Path(sys.argv[1]), Path(sys.argv[2])
(wheel,) = out.glob("qrglue_native-*.whl")
with zipfile.ZipFile(wheel) as archive:
    data = archive.read("qrglue/_native.abi3.so")
if not target.is_file() or target.read_bytes() != data:
    temporary = target.with_suffix(".tmp")
    temporary.write_bytes(data)
    os.chmod(temporary, 0o755)
    os.replace(temporary, target)
PY
  echo "$native_stamp" > .venv/.native-built
fi
