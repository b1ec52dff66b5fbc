#!/usr/bin/env bash
# serve.sh TIER [PORT] [--workers N] [--request-timeout SECS]: the Python server
# in the foreground (exec: its PID is this script's), nothing built. `just serve
# python TIER [PORT]` builds what it needs first (just build-http-python).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tier="${1:?usage: serve.sh TIER [PORT] [--workers N] [--request-timeout SECS]}"
port="${2:-8080}"
shift $(( $# >= 2 ? 2 : 1 ))
exec "$here/../.venv/bin/python" "$here/server.py" --tier "$tier" --port "$port" "$@"
