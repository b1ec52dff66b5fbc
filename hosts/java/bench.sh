#!/usr/bin/env bash
# png on the reference URL per Java path, each in a fresh JVM (dev.qrglue.Bench): JVM start to the
# first PNG, first and second call, steady-state median after a warm-up, and qr_noop's cost; the
# compiled path with and without -XX:-DontCompileHugeMethods. After `just build-java`.
#   bash hosts/java/bench.sh [WARMUP] [CALLS]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
java="$(bash "$here/../../tools/java/jdk.sh")/bin/java"
warmup="${1:-3000}"
calls="${2:-1000}"
cp="$here/target/qrglue.jar:$here/target/qrglue-tests.jar:$here/target/test-lib/*"
run() { local flags=(); while [[ "$1" == -X* ]]; do flags+=("$1"); shift; done; "$java" "${flags[@]}" -cp "$cp" dev.qrglue.Bench "$@"; }
run -XX:-DontCompileHugeMethods COMPILED "$warmup" "$calls" | sed 's/^{/{"jit": "-XX:-DontCompileHugeMethods", /'
run COMPILED "$warmup" "$calls" | sed 's/^{/{"jit": "default", /'
# The interpreter is ~10x slower: a tenth of the calls.
run -XX:-DontCompileHugeMethods INTERPRETED "$((warmup / 10))" "$((calls / 10))" | sed 's/^{/{"jit": "-XX:-DontCompileHugeMethods", /'
