#!/usr/bin/env bash
# plug.sh SOCKET PLUG OUT: fill SOCKET's imports with PLUG's exports, as
# `wac plug SOCKET --plug PLUG -o OUT` does, with the prebuilt
# `wasm-tools compose` (tools/requirements.txt) instead of a compiled wac-cli.
# compose finds a definition by the import's name, so the plug is linked under
# a kebab-case name first (compose refuses names with dots).
set -euo pipefail
socket=$1 plug=$2 out=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp "$plug" "$dir/plug.wasm"
# compose prints a deprecation notice and a line on success: shown on failure only.
if ! log=$(wasm-tools compose "$socket" -d "$dir/plug.wasm" -o "$out" 2>&1); then
    printf '%s\n' "$log" >&2
    exit 1
fi
