#!/usr/bin/env bash
# A coverage-guided fuzzing campaign (Jazzer, libFuzzer underneath) on one target of fuzz/.
#
# Usage:
#     bench/fuzz.sh TARGET [MINUTES] [libFuzzer options...]
#     bench/fuzz.sh FileFuzzTest 20               # whole files, 20 minutes
#     bench/fuzz.sh AlpFuzzTest 5 -runs=1000000   # stop after 10^6 inputs (or 5 minutes)
# TARGET is one of Fuzz.TARGETS (fuzz/src/test/java): FileFuzzTest, PageFuzzTest,
# DecompressorFuzzTest, AlpFuzzTest, PcoFuzzTest; the driver runs it through fuzz.Standalone.
#
# The corpus grows in fuzz/target/corpus/TARGET, seeded with the committed inputs
# (fuzz/src/test/resources/<its package>/TARGETInputs/*). An input that breaks the target's
# property (anything but a LanceCodecException escaping, more than 1 s, an OutOfMemoryError) is
# written to fuzz/target/findings/TARGET/ and the run exits non-zero: commit it into the inputs
# directory, so that `mvn verify` replays it for good, and fix the decoder. Jazzer's file-path and
# Unsafe sanitizers are off: the target writes its input to a temporary file, and the Unsafe hooks
# break Netty's (Arrow's allocator's) start-up.
# Prerequisite: our modules installed (mvn -o -DskipTests install). Campaigns may run side by
# side, but do not build fuzz/ (or install a module) while one runs: its JVM loads classes lazily
# from fuzz/target/test-classes and ~/.m2 and fails on a class a build is rewriting.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGET="${1:?usage: bench/fuzz.sh TARGET [MINUTES] [libFuzzer options...]}"
MINUTES="${2:-10}"
shift $(( $# >= 2 ? 2 : 1 ))
MVN_OFFLINE="${LANCE_CODEC_MVN_OFFLINE:+-o}"

cd "$ROOT/fuzz"
mvn -q $MVN_OFFLINE test-compile
mvn -q $MVN_OFFLINE dependency:build-classpath -Dmdep.outputFile=target/fuzz-classpath.txt -Dmdep.includeScope=test
REL="$(cd target/test-classes && find . -name "$TARGET.class" | head -1)"
[ -n "$REL" ] || { echo "no fuzz target $TARGET in fuzz/src/test/java" >&2; exit 2; }
PKG_DIR="$(dirname "${REL#./}")"
SEEDS="src/test/resources/$PKG_DIR/${TARGET}Inputs"
CORPUS="target/corpus/$TARGET"
FINDINGS="target/findings/$TARGET"
mkdir -p "$CORPUS" "$FINDINGS"
SEED_DIRS=()
if [ -d "$SEEDS" ]; then
  while IFS= read -r d; do SEED_DIRS+=("$d"); done < <(find "$SEEDS" -mindepth 1 -maxdepth 1 -type d)
fi
echo "# $(date -u +%FT%TZ) fuzzing $TARGET for $MINUTES min; git $(git -C "$ROOT" rev-parse --short HEAD); corpus $CORPUS"
JVM_TMP="$ROOT/fuzz/target/jvm-tmp"
mkdir -p "$JVM_TMP"
exec java --add-opens=java.base/java.nio=ALL-UNNAMED -Xmx1g -Djava.io.tmpdir="$JVM_TMP" -Dfuzz.target="$TARGET" \
  -cp "$(cat target/fuzz-classpath.txt):target/test-classes" \
  com.code_intelligence.jazzer.Jazzer \
  --target_class=io.lancecodec.fuzz.Standalone \
  --instrumentation_includes='io.lancecodec.**' \
  --disabled_hooks='com.code_intelligence.jazzer.sanitizers.FilePathTraversal:com.code_intelligence.jazzer.sanitizers.UnsafeSanitizer' \
  -max_total_time=$((MINUTES * 60)) -timeout=1 -rss_limit_mb=3072 -print_final_stats=1 \
  -artifact_prefix="$FINDINGS/" "$@" \
  "$CORPUS" "${SEED_DIRS[@]}"
