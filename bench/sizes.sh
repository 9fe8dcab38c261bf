#!/usr/bin/env bash
# The corpus file-size table (io.lancecodec.bench.sizes.CorpusSizes): every column of the anchor
# (shared/anchors/reference-lance-7.0.0.md) written by us and by the reference, 2.1 and 2.2, with
# no hint and with the zstd/lz4 hints. Every argument goes to CorpusSizes (--help lists them);
# e.g. `bench/sizes.sh --out bench/results`. stdout = the Markdown table only; Maven's output and
# per-file progress go to stderr.
#
# Builds what it needs first, when missing or older than the sources: our modules into ~/.m2
# (the reactor, tests skipped; bench/ is not in it) and bench/ itself with its class path.
# LANCE_CODEC_MVN_OFFLINE=1 builds with `mvn -o`. JAVA_OPTS are passed to the JVM.
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
ROOT="$(cd "$BENCH_DIR/.." && pwd -P)"
# Paths given relative to where the script was called from stay so after the cd below
# (`bench/sizes.sh --out bench/results` from the project root wrote to bench/bench/results).
args=()
prev=""
for a in "$@"; do
  case "$prev" in
    --out|--data|--anchor) [[ "$a" = /* ]] || a="$PWD/$a" ;;
  esac
  args+=("$a")
  prev="$a"
done
set -- "${args[@]+"${args[@]}"}"
cd "$BENCH_DIR"
# shellcheck source=snapshot-classpath.sh
. "$BENCH_DIR/snapshot-classpath.sh"

prepare_bench sizes "bench/sizes.sh"

echo "# git: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$ROOT" diff --quiet 2>/dev/null || echo ' + uncommitted changes')" >&2
# The reference unpacks a ~173 MB native library into java.io.tmpdir per JVM; keep it under target/.
set +e
java -Xms1g -Xmx6g ${JAVA_OPTS:-} --add-opens=java.base/java.nio=ALL-UNNAMED -Djava.io.tmpdir="$JVM_TMP" \
  -Dslf4j.internal.verbosity=ERROR -Dlance.codec.root="$ROOT" \
  -cp "$CP" io.lancecodec.bench.sizes.CorpusSizes "$@"
rc=$?
set -e
exit $rc
