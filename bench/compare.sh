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

prepare_bench compare "lance-codec bench"

# A researcher's codec jars (a class path), e.g. LANCE_CODEC_PLUGINS=/path/codec-foo.jar: found by
# CodecRegistry.discover() like ours, so `bench --codec foo` ranks them beside the built-in codecs.
if [ -n "${LANCE_CODEC_PLUGINS:-}" ]; then
  # relative entries name places relative to the caller, like --out and --data
  plugins=""
  IFS=':' read -r -a entries <<< "$LANCE_CODEC_PLUGINS"
  for e in "${entries[@]}"; do
    case "$e" in /*) ;; *) e="$CALLER_DIR/$e" ;; esac
    plugins="$plugins:$e"
  done
  LANCE_CODEC_PLUGINS="${plugins#:}"
  CP="$CP:$LANCE_CODEC_PLUGINS"
  echo "# extra plugins on the class path: $LANCE_CODEC_PLUGINS" >&2
fi

echo "# git: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$ROOT" diff --quiet 2>/dev/null || echo ' + uncommitted changes')" >&2
# A progress line only when stderr is a terminal (bin/lance-codec tells us: its pipe is not one).
tty="${LANCE_CODEC_STDERR_TTY:-}"
if [ -z "$tty" ]; then
  tty=false
  [ -t 2 ] && tty=true
fi
# The reference unpacks a ~173 MB native library into java.io.tmpdir per JVM; keep it under target/.
# A fixed heap, touched at start: with -Xms1g the heap grew and shrank between the systems' steps,
# and each newly committed page cost a page fault when first written, which on the 2-core VM of
# 2026-12-04 cost about 15 us each: our token-line scans (Java heap) fell to a tenth of their speed
# for seconds at a time, ~650 faults a scan, while the reference (native memory) did not.
set +e
java -Xms2g -Xmx2g -XX:+AlwaysPreTouch ${JAVA_OPTS:-} --add-opens=java.base/java.nio=ALL-UNNAMED -Djava.io.tmpdir="$JVM_TMP" \
  -Dlance.codec.stderr.tty="$tty" \
  -Dslf4j.internal.verbosity=ERROR -Dlance.codec.root="$ROOT" -Dlance.codec.cwd="$CALLER_DIR" \
  -cp "$CP" io.lancecodec.bench.compare.Compare "$@"
rc=$?
set -e
exit $rc
