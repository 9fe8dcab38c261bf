#!/usr/bin/env bash
# Draws the charts of results a run already wrote (io.lancecodec.bench.charts.Charts), without
# measuring again: PNGs beside each file (or in --out DIR), and on stdout the Markdown that shows them.
#
#   bench/charts.sh bench/results/compare-2026-12-02T113533Z.csv
#   bench/charts.sh bench/results/leaderboard-tokens-2026-11-29.md [--out DIR]
#
# FILE: compare-*.csv, leaderboard-*.csv, or a leaderboard-*.md from before the leaderboard wrote CSV.
# Builds bench/ alone when its classes are missing or older than its sources (our modules must be
# in ~/.m2 already; LANCE_CODEC_MVN_OFFLINE=1 builds with `mvn -o`): drawing needs none of our jars,
# so this never rebuilds the reactor.
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
CALLER_DIR="$(pwd -P)"

offline=()
[ "${LANCE_CODEC_MVN_OFFLINE:-}" = 1 ] && offline=(-o)
stamp="$BENCH_DIR/target/charts-classpath.txt"
if [ ! -f "$stamp" ] || [ -n "$(find "$BENCH_DIR/pom.xml" "$BENCH_DIR/src/main" -newer "$stamp" -type f -print -quit)" ]; then
  echo "bench/charts.sh: building bench/ (Maven output follows)" >&2
  (cd "$BENCH_DIR" && mvn "${offline[@]}" -q -B -Dstyle.color=never -DskipTests package \
    && mvn "${offline[@]}" -q -B -Dstyle.color=never dependency:build-classpath -Dmdep.outputFile="$stamp.tmp" \
      -Dmdep.includeScope=runtime) 2>&1 | sed -e 's/\x1b\[[0-9;]*m//g' -e '/^[[:space:]]*$/d' >&2
  [ "${PIPESTATUS[0]}" = 0 ] || { echo "bench/charts.sh: building bench/ failed (see above)" >&2; exit 1; }
  mv "$stamp.tmp" "$stamp"
fi

cd "$CALLER_DIR"
exec java -Djava.awt.headless=true ${JAVA_OPTS:-} -cp "$BENCH_DIR/target/classes:$(cat "$stamp")" \
  io.lancecodec.bench.charts.Charts "$@"
