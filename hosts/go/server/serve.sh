#!/usr/bin/env bash
# serve.sh TIER [PORT] [--workers N] [--request-timeout SECS]: the Go server in
# the foreground (exec: its PID is this script's), nothing built. `just serve
# go TIER [PORT]` builds what it needs first (just build-http-go).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tier="${1:?usage: serve.sh TIER [PORT] [--workers N] [--request-timeout SECS]}"
port="${2:-8080}"
shift $(( $# >= 2 ? 2 : 1 ))
exec "$here/../bin/qrglue-server" --tier "$tier" --port "$port" "$@"
