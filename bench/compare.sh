#!/usr/bin/env bash
# The end-to-end comparison and the codec leaderboard (io.lancecodec.bench.compare.Compare), as
# run by `bin/lance-codec bench ...`; every argument goes to Compare. stdout = the results only;
# Maven's output, progress and notes go to stderr.
#
# Builds what it needs first, when missing or older than the sources: our modules into ~/.m2
# (the reactor, tests skipped; bench/ is not in it) and bench/ itself with its class path.
# LANCE_CODEC_MVN_OFFLINE=1 builds with `mvn -o`. JAVA_OPTS are passed to the JVM;
# LANCE_CODEC_PLUGINS (a class path) adds third-party codec jars.
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
ROOT="$(cd "$BENCH_DIR/.." && pwd -P)"
# relative --out / --data paths name places relative to where the caller stands, not bench/
CALLER_DIR="$(pwd -P)"
cd "$BENCH_DIR"
# shellcheck source=snapshot-classpath.sh
. "$BENCH_DIR/snapshot-classpath.sh"

offline=()
[ "${LANCE_CODEC_MVN_OFFLINE:-}" = 1 ] && offline=(-o)
quiet_mvn() {
  # Maven 3.8 prints stray colour codes even with -q; keep stdout clean.
  "$@" 2>&1 | sed -e 's/\x1b\[[0-9;]*m//g' -e '/^[[:space:]]*$/d' >&2
  return "${PIPESTATUS[0]}"
}

STAMP="target/compare-classpath.txt"
stale() {
  [ -f "$STAMP" ] || return 0
  [ -n "$(find "$ROOT" -maxdepth 1 -name pom.xml -newer "$STAMP" -print -quit 2>/dev/null)" ] && return 0
  [ -n "$(find "$ROOT"/*/pom.xml "$ROOT"/*/src -newer "$STAMP" -type f -print -quit 2>/dev/null)" ] && return 0
  return 1
}
if stale; then
  echo "lance-codec bench: building our modules and bench/ (Maven output follows)" >&2
  quiet_mvn mvn "${offline[@]}" -q -B -Dstyle.color=never -Dmaven.test.skip=true -f "$ROOT/pom.xml" install \
    || { echo "lance-codec bench: building our modules failed (see above)" >&2; exit 1; }
  quiet_mvn mvn "${offline[@]}" -q -B -Dstyle.color=never -DskipTests package \
    || { echo "lance-codec bench: building bench/ failed (see above)" >&2; exit 1; }
  quiet_mvn mvn "${offline[@]}" -q -B -Dstyle.color=never dependency:build-classpath -Dmdep.outputFile="$STAMP.tmp" \
    -Dmdep.includeScope=runtime \
    || { echo "lance-codec bench: resolving bench/'s class path failed (see above)" >&2; exit 1; }
  mv "$STAMP.tmp" "$STAMP"
fi

# Private copies of our jars: other work re-installs them into ~/.m2 while this runs.
SNAP="target/compare-lib.$$"
JVM_TMP="$BENCH_DIR/target/compare-tmp.$$"
cleanup() { rm -rf "$SNAP" "$JVM_TMP"; }
trap cleanup EXIT
mkdir -p "$SNAP" "$JVM_TMP"
CP="$(snapshot_classpath "$STAMP" "$SNAP" "$BENCH_DIR/target/classes")"

# A researcher's codec jars (a class path), e.g. LANCE_CODEC_PLUGINS=/path/codec-foo.jar: found by
# CodecRegistry.discover() like ours, so `bench --codec foo` ranks them beside the built-in codecs.
if [ -n "${LANCE_CODEC_PLUGINS:-}" ]; then
  CP="$CP:$LANCE_CODEC_PLUGINS"
  echo "# extra plugins on the class path: $LANCE_CODEC_PLUGINS" >&2
fi

echo "# git: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$ROOT" diff --quiet 2>/dev/null || echo ' + uncommitted changes')" >&2
# The reference unpacks a ~173 MB native library into java.io.tmpdir per JVM; keep it under target/.
set +e
java -Xms1g -Xmx2g ${JAVA_OPTS:-} --add-opens=java.base/java.nio=ALL-UNNAMED -Djava.io.tmpdir="$JVM_TMP" \
  -Dslf4j.internal.verbosity=ERROR -Dlance.codec.root="$ROOT" -Dlance.codec.cwd="$CALLER_DIR" \
  -cp "$CP" io.lancecodec.bench.compare.Compare "$@"
rc=$?
set -e
exit $rc
