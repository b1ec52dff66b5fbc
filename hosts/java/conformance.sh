#!/usr/bin/env bash
# The Java host's conformance runner (tests/conformance/README.md), on the jar `just build-java` built:
# prints {"paths": {"java-compiled": ..., "java-interpreted": ...}} on standard output.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
java_home="$(bash "$here/../../tools/java/jdk.sh")"
exec "$java_home/bin/java" -XX:-DontCompileHugeMethods --enable-native-access=ALL-UNNAMED -Dqrglue.repo="$here/../.." \
    -cp "$here/target/qrglue.jar:$here/target/qrglue-tests.jar:$here/target/test-lib/*" dev.qrglue.ConformanceRunner
