#!/usr/bin/env bash
# The Python side of `just dist` (after `just build-python`): the two wheels in
# OUT (default target/dist).
#   qrglue-<version>-py3-none-any.whl   pure Python with both .wasm files
#       inside (package-data; build-python copied them from target/wasm), built
#       by `pip wheel` (setuptools, pinned in the venv, no isolation) from a
#       staged copy of pyproject.toml, README.md and src/, so that neither a
#       stale build/ directory nor the editable install's _native.abi3.so can
#       reach the wheel.
#   qrglue_native-<version>-cp310-abi3-<platform>.whl   the PyO3 extension
#       qrglue._native (abi3: CPython 3.10 and later), built by maturin exactly
#       as build.sh builds it (profile `addon` from native/pyproject.toml), so
#       cargo finds everything fresh and only packs.
#   qrglue_native-<version>-cp310-abi3-manylinux_<glibc>_aarch64.whl   the same
#       for linux-arm64-gnu, cross-built by tools/arm64/build.sh (`just dist`
#       runs it first) into target/cross/wheels/: copied, exactly one.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)
out=${1:-$repo/target/dist}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$repo/hosts/python"

stage="$repo/target/dist-stage/python"
rm -rf "$stage"
mkdir -p "$stage"
cp pyproject.toml README.md "$stage/"
tar -C . --exclude=__pycache__ --exclude='*.so' --exclude='*.tmp' --exclude='*.egg-info' -cf - src | tar -C "$stage" -xf -
.venv/bin/pip wheel --disable-pip-version-check -q --no-deps --no-build-isolation -w "$out" "$stage"

log="$repo/target/dist-stage/maturin.log"
if ! (cd native && ../.venv/bin/maturin build -i ../.venv/bin/python --out "$out") >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi

cross=("$repo"/target/cross/wheels/qrglue_native-*-cp310-abi3-*_aarch64.whl)
if [ ${#cross[@]} -ne 1 ] || [ ! -f "${cross[0]}" ]; then
  echo "dist: not one arm64 qrglue_native wheel in target/cross/wheels (${cross[*]}): run tools/arm64/build.sh" >&2
  exit 1
fi
cp "${cross[0]}" "$out/"
