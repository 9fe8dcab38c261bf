# Sourced by run.sh, compare.sh and sizes.sh. Other work may re-install our snapshot jars into ~/.m2 while a
# benchmark runs, and a JVM that loads a jar mid-rewrite fails ("Provider ... not found"), so the
# io.lancecodec jars of a class path are copied aside first.
#
# snapshot_classpath CLASSPATH_FILE SNAPSHOT_DIR FIRST_ENTRY: prints FIRST_ENTRY followed by the
# class path of CLASSPATH_FILE, with our jars replaced by checked copies in SNAPSHOT_DIR.
snapshot_classpath() {
  local cp_file="$1" snap="$2" cp="$3" j attempt
  local -a jars
  mkdir -p "$snap"
  IFS=: read -ra jars <<< "$(cat "$cp_file")"
  for j in "${jars[@]}"; do
    case "$j" in
      */io/lancecodec/*)
        for attempt in 1 2 3 4 5; do
          cp -p "$j" "$snap/" && unzip -tq "$snap/$(basename "$j")" >/dev/null 2>&1 && break
          echo "# $j is being rewritten, retrying" >&2; sleep 2
        done
        j="$snap/$(basename "$j")"
        ;;
    esac
    cp="$cp:$j"
  done
  printf '%s' "$cp"
}

# prepare_bench TAG LABEL: builds our modules and bench/ when missing or older than the sources
# (tests skipped; LANCE_CODEC_MVN_OFFLINE=1 builds with `mvn -o`), then sets CP to bench's class
# path with private copies of our jars under target/TAG-lib.PID and JVM_TMP to a private
# java.io.tmpdir (the reference unpacks a ~173 MB native library there), both removed on exit.
# Needs ROOT and BENCH_DIR, and the current directory to be bench/. LABEL prefixes messages.
prepare_bench() {
  local tag="$1" label="$2"
  local -a offline=()
  [ "${LANCE_CODEC_MVN_OFFLINE:-}" = 1 ] && offline=(-o)
  local stamp="target/$tag-classpath.txt"
  if _bench_stale "$stamp"; then
    echo "$label: building our modules and bench/ (Maven output follows)" >&2
    _quiet_mvn mvn "${offline[@]}" -q -B -Dstyle.color=never -Dmaven.test.skip=true -f "$ROOT/pom.xml" install \
      || { echo "$label: building our modules failed (see above)" >&2; exit 1; }
    _quiet_mvn mvn "${offline[@]}" -q -B -Dstyle.color=never -DskipTests package \
      || { echo "$label: building bench/ failed (see above)" >&2; exit 1; }
    _quiet_mvn mvn "${offline[@]}" -q -B -Dstyle.color=never dependency:build-classpath -Dmdep.outputFile="$stamp.tmp" \
      -Dmdep.includeScope=runtime \
      || { echo "$label: resolving bench/'s class path failed (see above)" >&2; exit 1; }
    mv "$stamp.tmp" "$stamp"
  fi
  SNAP="target/$tag-lib.$$"
  JVM_TMP="$BENCH_DIR/target/$tag-tmp.$$"
  trap 'rm -rf "$SNAP" "$JVM_TMP"' EXIT
  mkdir -p "$SNAP" "$JVM_TMP"
  CP="$(snapshot_classpath "$stamp" "$SNAP" "$BENCH_DIR/target/classes")"
}

_quiet_mvn() {
  # Maven 3.8 prints stray colour codes even with -q; keep stdout clean.
  "$@" 2>&1 | sed -e 's/\x1b\[[0-9;]*m//g' -e '/^[[:space:]]*$/d' >&2
  return "${PIPESTATUS[0]}"
}

_bench_stale() {
  local stamp="$1"
  [ -f "$stamp" ] || return 0
  [ -n "$(find "$ROOT" -maxdepth 1 -name pom.xml -newer "$stamp" -print -quit 2>/dev/null)" ] && return 0
  [ -n "$(find "$ROOT"/*/pom.xml "$ROOT"/*/src -newer "$stamp" -type f -print -quit 2>/dev/null)" ] && return 0
  return 1
}
