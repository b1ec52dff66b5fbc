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
# The memory flags are what keeps a long-running server's RSS flat (`just soak`, docs/guarantees.md): the
# live heap is ~4 MB, but the default initial heap (1/64 of RAM) lets G1 touch fresh pages for an hour,
# and glibc keeps the C2 compiler's freed arenas (tens of MB for the compiled wasm's huge methods)
# unless the JVM trims them.
exec "$java_home/bin/java" -XX:-DontCompileHugeMethods --enable-native-access=ALL-UNNAMED \
    -Xms32m -Xmx512m -XX:TrimNativeHeapInterval=10000 \
    -Dqrglue.repo="$here/../../.." -cp "$here/target/classes:$here/target/lib/*" \
    dev.qrglue.server.Server --tier "$tier" --port "$port" "$@"
