#!/usr/bin/env bash
# Builds the Python host's generated parts (all gitignored): .venv with the
# exact pins of requirements-dev.txt, both .wasm files copied into the package
# (src/qrglue/), and an editable install of the package. Run from the repo root
# by `just build-python` after `just build-wasm`. Idempotent and quick: pip runs
# only when requirements-dev.txt or pyproject.toml changed since its last run
# (stamp copies in .venv), and a .wasm is copied only when its bytes changed.
# QRGLUE_VERBOSE=1 shows pip's progress.
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

for name in component raw; do
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
