#!/usr/bin/env bash
# Sparse data of real shape (io.lancecodec.bench.sparse.SparseCorpus): our 2.2 and 2.3 files of a
# 99%-null delay column and of mostly null/empty lists of mail subjects, their bytes, random
# single-row takes per second and the value bytes a 2.3 take of null rows reads. Arguments after
# the data directory go to SparseCorpus (--rows N, --seconds S). stdout = the Markdown table only.
set -euo pipefail
BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
ROOT="$(cd "$BENCH_DIR/.." && pwd -P)"
cd "$BENCH_DIR"
# shellcheck source=snapshot-classpath.sh
. "$BENCH_DIR/snapshot-classpath.sh"
prepare_bench sparse "bench/sparse.sh"
echo "# git: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$ROOT" diff --quiet 2>/dev/null || echo ' + uncommitted changes')" >&2
java -Xms2g -Xmx6g ${JAVA_OPTS:-} --add-opens=java.base/java.nio=ALL-UNNAMED -Djava.io.tmpdir="$JVM_TMP" \
  -cp "$CP" io.lancecodec.bench.sparse.SparseCorpus "${1:-$ROOT/../shared/data}" "${@:2}"
