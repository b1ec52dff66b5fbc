#!/usr/bin/env bash
# serve.sh TIER [PORT] [--workers N] [--request-timeout SECS]: the Java server in the foreground (exec:
# its PID is this script's), nothing built. `just serve java TIER [PORT]` builds what it needs first
# (just build-http-java).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tier="${1:?usage: serve.sh TIER [PORT] [--workers N] [--request-timeout SECS]}"
port="${2:-8080}"
shift $(( $# >= 2 ? 2 : 1 ))
java_home="$(bash "$here/../../../tools/java/jdk.sh")"
# -XX:-DontCompileHugeMethods: the compiled wasm's largest functions get JIT-compiled (hosts/java/README.md).
exec "$java_home/bin/java" -XX:-DontCompileHugeMethods --enable-native-access=ALL-UNNAMED \
    -Dqrglue.repo="$here/../../.." -cp "$here/target/classes:$here/target/lib/*" \
    dev.qrglue.server.Server --tier "$tier" --port "$port" "$@"
