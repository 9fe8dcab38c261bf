# Sourced by run.sh and compare.sh. Other work may re-install our snapshot jars into ~/.m2 while a
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
