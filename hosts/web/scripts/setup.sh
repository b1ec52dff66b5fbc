#!/usr/bin/env bash
# What the browser tests and the browser bench need besides the built glue
# (`just build-node`): the locked npm deps (playwright-core, jsqr, pngjs) and
# Debian's chromium (tools/system/packages.txt, `just setup-system`)
# (playwright-core never downloads a browser: it drives this one through
# executablePath). Idempotent: does nothing when both are there.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund ${QRGLUE_VERBOSE:+--loglevel=info} --quiet
fi

chromium=${QRGLUE_CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
  echo "qrglue web: no Chromium at $chromium: Debian's chromium is missing; run \`just setup-system\`" \
    "(tools/system/packages.txt)" >&2
  exit 1
fi
