#!/usr/bin/env bash
# serve.sh TIER [PORT] [--workers N] [--request-timeout SECS]: a Rust server in
# the foreground (exec: its PID is this script's), nothing built. `just serve
# rust TIER [PORT]` builds what it needs first (just build-http-rust).
#
# Tiers axum and static are target/addon/qrglue-server. Any other tier T is
# hosts/rust/server/tiers/T.sh, run as `T.sh PORT [flags]` (the hook for tiers
# served by something else, e.g. wasi-http under `wasmtime serve`): it must
# exec its server on 127.0.0.1:PORT and build nothing.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tier="${1:?usage: serve.sh TIER [PORT] [--workers N] [--request-timeout SECS]}"
port="${2:-8080}"
shift $(( $# >= 2 ? 2 : 1 ))
case "$tier" in
  axum|static) exec "$here/../../../target/addon/qrglue-server" --tier "$tier" --port "$port" "$@" ;;
esac
if [ -f "$here/tiers/$tier.sh" ]; then
  exec bash "$here/tiers/$tier.sh" "$port" "$@"
fi
known="axum static$(cd "$here" && for f in tiers/*.sh; do [ -f "$f" ] && printf ' %s' "$(basename "$f" .sh)"; done; true)"
echo "serve.sh: unknown rust tier '$tier' (rust tiers: $known)" >&2
exit 2
