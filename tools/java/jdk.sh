#!/usr/bin/env bash
# Prints the JDK 25 that hosts/java builds and runs with: $QRGLUE_JAVA_HOME if set, else the
# Temurin 25 JDK beside the system's default JDK (/usr/lib/jvm/temurin-25-jdk-<arch>; it is not
# registered with update-java-alternatives, so `java` on PATH is not it). Fails naming what it tried.
set -euo pipefail
if [ -n "${QRGLUE_JAVA_HOME:-}" ]; then
    candidates=("$QRGLUE_JAVA_HOME")
else
    jvm_dir=/usr/lib/jvm
    if command -v java >/dev/null; then
        # The default JDK's folder's parent: .../<jdk>/bin/java -> ...
        jvm_dir="$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")")"
    fi
    arch="$(dpkg --print-architecture 2>/dev/null || echo amd64)"
    candidates=("$jvm_dir/temurin-25-jdk-$arch" "/usr/lib/jvm/temurin-25-jdk-$arch")
fi
for home in "${candidates[@]}"; do
    if [ -x "$home/bin/java" ] && "$home/bin/java" -version 2>&1 | grep -q 'version "25'; then
        echo "$home"
        exit 0
    fi
done
echo "jdk.sh: no JDK 25 at ${candidates[*]} (set QRGLUE_JAVA_HOME to one)" >&2
exit 1
