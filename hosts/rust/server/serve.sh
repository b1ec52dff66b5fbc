#!/usr/bin/env bash
# serve.sh TIER [PORT] [--workers N] [--request-timeout SECS]: the Rust server
# in the foreground (exec: its PID is this script's), nothing built. `just
# serve rust TIER [PORT]` builds what it needs first (just build-http-rust).
# Tiers: axum and static, both target/addon/qrglue-server. The wasi:http
# component's servers are host wasi-http (hosts/wasi-http/server/serve.sh).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tier="${1:?usage: serve.sh TIER [PORT] [--workers N] [--request-timeout SECS]}"
port="${2:-8080}"
shift $(( $# >= 2 ? 2 : 1 ))
case "$tier" in
  axum|static) exec "$here/../../../target/addon/qrglue-server" --tier "$tier" --port "$port" "$@" ;;
esac
echo "serve.sh: unknown rust tier '$tier' (rust tiers: axum static; the wasi:http tiers are host wasi-http)" >&2
exit 2
