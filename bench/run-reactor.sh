#!/usr/bin/env bash
# Runs JMH benchmarks of bench/ built from this worktree's reactor, without installing anything:
# our modules come from their target/ jars, not from ~/.m2 (compare run.sh, which needs them
# installed first).
#
# Usage (all arguments go to org.openjdk.jmh.Main unchanged):
#     bench/run-reactor.sh AlpBenchmark -f 1 -wi 3 -i 5 -w 1 -r 1
# Set BENCH_SKIP_BUILD=1 to reuse the last build (target/reactor-classpath.txt).
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH_DIR/.." && pwd)"
cd "$BENCH_DIR"

CP_FILE="$BENCH_DIR/target/reactor-classpath.txt"
if [ "${BENCH_SKIP_BUILD:-}" != 1 ] || [ ! -f "$CP_FILE" ]; then
  # One reactor build of bench/ and the modules it needs (-am), tests skipped; package, never install.
  # Every module of the reactor writes the class path file in turn; bench/ comes last.
  (cd "$ROOT" && nice -n 10 mvn -o -q -B -Dstyle.color=never -pl bench -am -DskipTests package \
    dependency:build-classpath -Dmdep.outputFile="$CP_FILE" -Dmdep.includeScope=runtime)
fi
# Private copies of our jars, so a rebuild during the run cannot change what the forks load.
SNAP="target/reactor-lib.$$"
JVM_TMP="$BENCH_DIR/target/jvm-tmp"
mkdir -p "$JVM_TMP"
trap 'rm -rf "$SNAP" "$JVM_TMP"' EXIT
mkdir -p "$SNAP"
cp -rp "$BENCH_DIR/target/classes" "$SNAP/bench-classes"
CP="$SNAP/bench-classes"
IFS=: read -ra JARS <<< "$(cat "$CP_FILE")"
for j in "${JARS[@]}"; do
  case "$j" in
    "$ROOT"/*/target/*.jar) cp -p "$j" "$SNAP/" && j="$SNAP/$(basename "$j")" ;;
  esac
  CP="$CP:$j"
done

echo "# $(date -u +%FT%TZ) $(uname -srm), $(nproc) cpus; loadavg before: $(cat /proc/loadavg)"
echo "# git: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$ROOT" diff --quiet 2>/dev/null || echo ' + uncommitted changes')"
for j in "$SNAP"/*.jar; do
  echo "# our jar: $(basename "$j") sha256:$(sha256sum "$j" | cut -c1-12)"
done
set +e
nice -n 10 java --add-opens=java.base/java.nio=ALL-UNNAMED -Djava.io.tmpdir="$JVM_TMP" \
  -cp "$CP" org.openjdk.jmh.Main "$@"
rc=$?
set -e
echo "# loadavg after: $(cat /proc/loadavg)"
exit $rc
