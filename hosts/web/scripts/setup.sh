#!/usr/bin/env bash
# What the browser tests and the browser bench need besides the built glue
# (`just build-node`): the locked npm deps (playwright-core, jsqr, pngjs) and
# Debian's chromium, installed with apt when /usr/bin/chromium is missing
# (playwright-core never downloads a browser: it drives this one through
# executablePath). Idempotent: does nothing when both are there.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund ${QRGLUE_VERBOSE:+--loglevel=info} --quiet
fi

chromium=${QRGLUE_CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
  if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null; then
    echo "qrglue web: no Chromium at $chromium; install Debian's package: apt-get install -y chromium" >&2
    exit 1
  fi
  sudo=$([ "$(id -u)" -eq 0 ] || echo sudo)
  echo "qrglue web: installing Debian's chromium (apt-get)" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi
