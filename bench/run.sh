#!/usr/bin/env bash
# Runs the lance-codec JMH benchmarks (bench/) against the reference org.lance:lance-core.
#
# Prerequisite (once, by the caller): our modules installed into ~/.m2:
#     cd /work/main && mvn -q -o -DskipTests install
# Usage:
#     bench/run.sh                          # every benchmark, default JMH settings from the annotations
#     bench/run.sh ScanBenchmark -p dataset=tokens
#     bench/run.sh -h                       # JMH options
# All arguments go to org.openjdk.jmh.Main unchanged.
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$BENCH_DIR"
# shellcheck source=snapshot-classpath.sh
. "$BENCH_DIR/snapshot-classpath.sh"

# bench/ is built here on its own (it is in the root reactor too, but never shipped) so that a
# benchmark run uses our modules as installed in ~/.m2, its parent through ../pom.xml.
mvn -q -o -DskipTests package

CP_FILE="target/classpath.txt"
mvn -q -o dependency:build-classpath -Dmdep.outputFile="$CP_FILE" -Dmdep.includeScope=runtime
# Private copies of our jars (see snapshot-classpath.sh).
SNAP="target/lib-snapshot"
rm -rf "$SNAP"
CP="$(snapshot_classpath "$CP_FILE" "$SNAP" target/classes)"

# The reference unpacks a ~173 MB native library into java.io.tmpdir on every JVM start and
# leaves it behind after a native abort; keep it under target/ and clean it afterwards.
# The forks get the same directory (relative, since JMH forks inherit this working directory)
# from @Fork(jvmArgsAppend) in the benchmark classes.
JVM_TMP="$BENCH_DIR/target/jvm-tmp"
mkdir -p "$JVM_TMP"
cleanup() { rm -rf "$JVM_TMP"; }
trap cleanup EXIT

echo "# $(date -u +%FT%TZ) $(uname -srm), $(nproc) cpus; loadavg before: $(cat /proc/loadavg)"
echo "# git: $(git -C "$BENCH_DIR/.." rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$BENCH_DIR/.." diff --quiet 2>/dev/null || echo ' + uncommitted changes')"
for j in "$SNAP"/*.jar; do
  echo "# our jar: $(basename "$j") $(date -u -r "$j" +%FT%TZ) sha256:$(sha256sum "$j" | cut -c1-12)"
done
set +e
java --add-opens=java.base/java.nio=ALL-UNNAMED -Djava.io.tmpdir="$JVM_TMP" \
  -cp "$CP" org.openjdk.jmh.Main "$@"
rc=$?
set -e
echo "# loadavg after: $(cat /proc/loadavg)"
exit $rc
