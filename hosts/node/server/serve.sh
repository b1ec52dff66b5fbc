#!/usr/bin/env bash
# serve.sh TIER [PORT] [--workers N] [--request-timeout SECS]: the Node server in
# the foreground (exec: its PID is this script's), nothing built. `just serve
# node TIER [PORT]` builds what it needs first (just build-http-node).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tier="${1:?usage: serve.sh TIER [PORT] [--workers N] [--request-timeout SECS]}"
port="${2:-8080}"
shift $(( $# >= 2 ? 2 : 1 ))
exec node "$here/server.mjs" --tier "$tier" --port "$port" "$@"
