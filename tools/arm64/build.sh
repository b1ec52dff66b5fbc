#!/usr/bin/env bash
# linux-arm64-gnu's prebuilt artifacts, cross-compiled on this (x86_64) machine
# for `just dist` (recipe _dist-arm64):
#   target/cross/aarch64-unknown-linux-gnu/addon/libqrglue_node_native.so
#       the napi-rs addon (hosts/node/native), as hosts/node/scripts/build.sh
#       builds this machine's: same crate, profile `addon`, --locked; packed
#       by hosts/node/scripts/dist.mjs as qrglue.linux-arm64-gnu.node
#   target/cross/wheels/qrglue_native-<version>-cp310-abi3-manylinux_<glibc>_aarch64.whl
#       the abi3 wheel (hosts/python/native), by the dev venv's pinned maturin;
#       its manylinux tag is the one maturin computes from the glibc symbols
#       the extension uses (no --compatibility); copied into the dist by
#       hosts/python/scripts/dist.sh
# Toolchain: rustup's aarch64-unknown-linux-gnu target and Debian's
# gcc-aarch64-linux-gnu as the linker, with libc6-dev-arm64-cross's headers
# (both in tools/system/packages.txt, installed by `just setup-system`; the cross
# glibc is bookworm's 2.36), given to cargo through the
# environment only, never a .cargo/config. Its own target dir (target/cross),
# so neither x86_64 build's cache is invalidated.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
triple=aarch64-unknown-linux-gnu

rustup target list --installed | grep -qx "$triple" || rustup target add "$triple"
# Fail before cargo, naming the package, when the cross C toolchain cannot build
# what mimalloc's C build compiles: its compiler and the aarch64 glibc headers.
# (gcc-aarch64-linux-gnu only recommends libc6-dev-arm64-cross; without it the
# failure came minutes later from cc-rs as "bits/libc-header-start.h: No such file".)
if ! command -v aarch64-linux-gnu-gcc >/dev/null; then
  echo "qrglue arm64: no aarch64-linux-gnu-gcc: Debian's gcc-aarch64-linux-gnu is missing;" \
    "run \`just setup-system\` (tools/system/packages.txt)" >&2
  exit 1
fi
if ! printf '#include <wchar.h>\nint main(void) { return 0; }\n' \
    | aarch64-linux-gnu-gcc -x c -c -o /dev/null - 2>"${TMPDIR:-/tmp}/qrglue-arm64-cc.log"; then
  cat "${TMPDIR:-/tmp}/qrglue-arm64-cc.log" >&2
  echo "qrglue arm64: aarch64-linux-gnu-gcc cannot compile '#include <wchar.h>': Debian's" \
    "libc6-dev-arm64-cross (the aarch64 glibc headers) is missing; run \`just setup-system\`" \
    "(tools/system/packages.txt)" >&2
  exit 1
fi

export CARGO_TARGET_DIR="$repo/target/cross"
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
cargo=${CARGO:-cargo}
quiet=$([ -z "${QRGLUE_VERBOSE:-}" ] && echo -q || true)
"$cargo" build $quiet --locked --profile addon -p qrglue-node-native --target "$triple"

wheels="$CARGO_TARGET_DIR/wheels"
rm -rf "$wheels"
mkdir -p "$wheels"
log="$CARGO_TARGET_DIR/maturin.log"
# maturin reports progress even with -q: keep its log, show it on failure.
if ! (cd hosts/python/native && ../.venv/bin/maturin build --target "$triple" --out "$wheels") >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi
if [ -n "${QRGLUE_VERBOSE:-}" ]; then cat "$log"; fi
