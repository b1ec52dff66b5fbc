#!/usr/bin/env bash
# Builds the package's generated parts (all gitignored): gen/ = jco output for
# the component, wasm/ = both .wasm files. Run from the repo root by
# `just build-node` after `just build-wasm`. Idempotent and quick: npm ci only
# when node_modules is missing or older than package-lock.json.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=../..

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi

mkdir -p wasm
cp "$repo/target/wasm/qrglue.component.wasm" "$repo/target/wasm/qrglue.raw.wasm" wasm/

# Flags chosen by measurement (README, "jco flags"): sync instantiation, so a
# trapped instance can be replaced synchronously; no lifting optimisation and
# no wasm-opt, as neither changed per-call time measurably.
rm -rf gen
npx --no-install jco transpile wasm/qrglue.component.wasm -o gen --name qrglue \
  --instantiation sync --quiet
