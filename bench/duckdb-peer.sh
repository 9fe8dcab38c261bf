#!/usr/bin/env bash
# DuckDB beside ours for the float columns of the corpus (io.lancecodec.bench.sizes.DuckDbPeer):
# bytes per value from file growth over millions of values, see the class's doc. Arguments go to
# DuckDbPeer: [--only REGEX] [--min-values N] [--out DIR]. stdout = the Markdown table only.
#
# org.duckdb:duckdb_jdbc is a dependency of bench (Compare measures DuckDB too), so it is on the class path.
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
ROOT="$(cd "$BENCH_DIR/.." && pwd -P)"
cd "$BENCH_DIR"
# shellcheck source=snapshot-classpath.sh
. "$BENCH_DIR/snapshot-classpath.sh"

prepare_bench sizes "bench/duckdb-peer.sh"

echo "# git: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$ROOT" diff --quiet 2>/dev/null || echo ' + uncommitted changes')" >&2
java -Xms1g -Xmx6g ${JAVA_OPTS:-} --add-opens=java.base/java.nio=ALL-UNNAMED -Djava.io.tmpdir="$JVM_TMP" \
  -Dslf4j.internal.verbosity=ERROR -Dlance.codec.root="$ROOT" \
  -cp "$CP" io.lancecodec.bench.sizes.DuckDbPeer "$@"
