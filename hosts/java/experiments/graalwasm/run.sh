#!/usr/bin/env bash
# GraalWasm on the stock JDK 25: ref-02's png through the raw ABI, interpreted (Truffle's fallback
# runtime) and then with the Graal compiler (JVMCI enabled, org.graalvm.compiler:compiler on the
# upgrade module path). After `just build-wasm`. Usage: bash run.sh [WARMUP] [CALLS]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
export JAVA_HOME="$(bash ../../../../tools/java/jdk.sh)"
v=25.0.2
[ -f "compiler/compiler-$v.jar" ] || {
    mvn -B -q dependency:copy-dependencies -DoutputDirectory=lib
    mvn -B -q dependency:copy -Dartifact="org.graalvm.compiler:compiler:$v" -DoutputDirectory=compiler
}
mkdir -p classes && "$JAVA_HOME/bin/javac" -d classes -cp "lib/*" GraalWasmBench.java
wasm=../../../../target/wasm/qrglue.raw-nosimd.wasm
echo "== fallback runtime (no runtime compilation)"
"$JAVA_HOME/bin/java" -Dpolyglot.engine.WarnInterpreterOnly=false -cp "classes:lib/*" GraalWasmBench "$wasm" 20 20
echo "== Graal compiler through JVMCI"
"$JAVA_HOME/bin/java" -XX:+UnlockExperimentalVMOptions -XX:+EnableJVMCI \
    --upgrade-module-path="compiler/compiler-$v.jar:lib/collections-$v.jar:lib/word-$v.jar:lib/truffle-compiler-$v.jar" \
    -cp "classes:lib/*" GraalWasmBench "$wasm" "${1:-3000}" "${2:-1000}"
