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
# gcc-aarch64-linux-gnu as the linker (apt-get when aarch64-linux-gnu-gcc is
# missing; the cross glibc is bookworm's 2.36), given to cargo through the
# environment only, never a .cargo/config. Its own target dir (target/cross),
# so neither x86_64 build's cache is invalidated.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
triple=aarch64-unknown-linux-gnu

rustup target list --installed | grep -qx "$triple" || rustup target add "$triple"
if ! command -v aarch64-linux-gnu-gcc >/dev/null; then
  if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null; then
    echo "qrglue arm64: no aarch64-linux-gnu-gcc; install Debian's package:" \
      "apt-get install -y --no-install-recommends gcc-aarch64-linux-gnu" >&2
    exit 1
  fi
  sudo=$([ "$(id -u)" -eq 0 ] || echo sudo)
  echo "qrglue arm64: installing Debian's gcc-aarch64-linux-gnu (apt-get)" >&2
  $sudo apt-get update -qq
  # env after sudo: sudo's env_reset would drop a DEBIAN_FRONTEND set before it.
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    gcc-aarch64-linux-gnu >/dev/null
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
