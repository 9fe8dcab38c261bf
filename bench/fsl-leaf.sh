#!/usr/bin/env bash
# Fixed-size-list leaf compression on the corpus (io.lancecodec.bench.sizes.FslLeafProbe): bytes
# per token of the real token ids as FixedSizeList<UInt64|UInt32>[2048] in our 2.2 and 2.3, with
# no hint and under zstd, the Gaussian control and its float16-rounded twin, then 2.3-vs-2.2 scans
# and single-row takes measured in alternation. Markdown on stdout.
#
#   bench/fsl-leaf.sh [DATA_DIR [SECONDS_PER_MEASURE [GAUSS_ROWS]]]     (default ../shared/data 3 20000)
#
# Builds what it needs first (see snapshot-classpath.sh); LANCE_CODEC_MVN_OFFLINE=1 builds with
# `mvn -o`. JAVA_OPTS are passed to the JVM.
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
ROOT="$(cd "$BENCH_DIR/.." && pwd -P)"
DATA="${1:-$ROOT/../shared/data}"
[[ "$DATA" = /* ]] || DATA="$PWD/$DATA"
cd "$BENCH_DIR"
# shellcheck source=snapshot-classpath.sh
. "$BENCH_DIR/snapshot-classpath.sh"

prepare_bench sizes "bench/fsl-leaf.sh"

echo "# git: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$ROOT" diff --quiet 2>/dev/null || echo ' + uncommitted changes')" >&2
java -Xms1g -Xmx8g ${JAVA_OPTS:-} --add-opens=java.base/java.nio=ALL-UNNAMED -Djava.io.tmpdir="$JVM_TMP" \
  -Dslf4j.internal.verbosity=ERROR -cp "$CP" io.lancecodec.bench.sizes.FslLeafProbe "$DATA" "${2:-3}" "${3:-20000}"
