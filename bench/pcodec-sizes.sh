#!/usr/bin/env bash
# pcodec sizes (io.lancecodec.bench.sizes.PcodecSizes): the corpus's float columns, a real time
# series as fsl<f32>[3] and the 768-wide Gaussian vectors (f32 and rounded to f16), written with
# compression=pcodec in our 2.3 and with byte-stream-split + zstd in our 2.2, each file checked by
# a scan. Arguments go to PcodecSizes (--out DIR, --only REGEX, --no-gauss). stdout = the Markdown
# table only. Builds like sizes.sh (LANCE_CODEC_MVN_OFFLINE=1 builds with `mvn -o`).
set -euo pipefail
BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
ROOT="$(cd "$BENCH_DIR/.." && pwd -P)"
cd "$BENCH_DIR"
# shellcheck source=snapshot-classpath.sh
. "$BENCH_DIR/snapshot-classpath.sh"
prepare_bench pcodec-sizes "bench/pcodec-sizes.sh"
echo "# git: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$ROOT" diff --quiet 2>/dev/null || echo ' + uncommitted changes')" >&2
java -Xms1g -Xmx6g ${JAVA_OPTS:-} --add-opens=java.base/java.nio=ALL-UNNAMED -Djava.io.tmpdir="$JVM_TMP" \
  -Dslf4j.internal.verbosity=ERROR -Dlance.codec.root="$ROOT" \
  -cp "$CP" io.lancecodec.bench.sizes.PcodecSizes "$@"
