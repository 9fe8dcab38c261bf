#!/usr/bin/env bash
# DuckDB beside ours for the float columns of the corpus (io.lancecodec.bench.sizes.DuckDbPeer):
# bytes per value from file growth over millions of values, see the class's doc. Arguments go to
# DuckDbPeer: [--only REGEX] [--min-values N] [--out DIR]. stdout = the Markdown table only.
#
# org.duckdb:duckdb_jdbc is not a dependency of bench (a ~70 MB jar of native libraries that no
# other benchmark needs); it is fetched into ~/.m2 here once and put on the class path.
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
ROOT="$(cd "$BENCH_DIR/.." && pwd -P)"
cd "$BENCH_DIR"
# shellcheck source=snapshot-classpath.sh
. "$BENCH_DIR/snapshot-classpath.sh"

DUCKDB_VERSION="${DUCKDB_VERSION:-1.4.4.0}"
DUCKDB_JAR="$HOME/.m2/repository/org/duckdb/duckdb_jdbc/$DUCKDB_VERSION/duckdb_jdbc-$DUCKDB_VERSION.jar"
if [ ! -f "$DUCKDB_JAR" ]; then
  echo "bench/duckdb-peer.sh: fetching org.duckdb:duckdb_jdbc:$DUCKDB_VERSION" >&2
  _quiet_mvn mvn -q -B -Dstyle.color=never dependency:get -Dartifact="org.duckdb:duckdb_jdbc:$DUCKDB_VERSION" -Dtransitive=false
fi

prepare_bench sizes "bench/duckdb-peer.sh"

echo "# git: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$ROOT" diff --quiet 2>/dev/null || echo ' + uncommitted changes')" >&2
java -Xms1g -Xmx6g ${JAVA_OPTS:-} --add-opens=java.base/java.nio=ALL-UNNAMED -Djava.io.tmpdir="$JVM_TMP" \
  -Dslf4j.internal.verbosity=ERROR -Dlance.codec.root="$ROOT" \
  -cp "$CP:$DUCKDB_JAR" io.lancecodec.bench.sizes.DuckDbPeer "$@"
