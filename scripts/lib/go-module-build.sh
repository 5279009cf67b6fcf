# shellcheck shell=bash
# Helpers for builds of wrapper Go modules (scripts/pulumi/build.sh, scripts/gitops/build.sh):
# copying a wrapper module out of the repository, checking a binary's build info and recording
# build times. Sourced, never executed. The caller sets HERE (its script dir, holding modules/),
# WORK_DIR (scratch copies of the modules), TIMES_FILE, FORCE and a binary_ok NAME function.

now() { date +%s; }
# CPU seconds (user + system) of the calling script's finished children, the go commands included:
# on a shared machine the wall time depends on the load, the CPU time much less (CI budget estimates).
cpu() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%d", ($16 + $17) / hz }' "/proc/$$/stat"; }
# record_time NAME START_WALL START_CPU: one line of $TIMES_FILE.
record_time() {
  printf '%s\t%s\t%ss wall\t%ss cpu\tload %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$1" "$(($(now) - $2))" \
    "$(($(cpu) - $3))" "$(cut -d' ' -f1-3 /proc/loadavg)" >>"$TIMES_FILE"
}

# Copies a wrapper module (go.mod + the committed go.sum) into the work dir; the repository is
# never written by a build. After a version bump, copy the new go.sum back and commit it.
prepare_module() {
  local name="$1" dir="$WORK_DIR/$1"
  mkdir -p "$dir"
  cp "$HERE/modules/$name/go.mod" "$dir/go.mod"
  if [[ -f "$HERE/modules/$name/go.sum" ]]; then cp "$HERE/modules/$name/go.sum" "$dir/go.sum"; else rm -f "$dir/go.sum"; fi
  echo "$dir"
}

# True when BIN was built from MODULE at VERSION, read from the binary's build info (`mod`/`dep`
# lines). -trimpath keeps -ldflags, thus any -X version, out of the build info, so the source
# module's version is what can be checked.
built_from() {
  go version -m "$1" 2>/dev/null |
    awk -v m="$2" -v v="$3" '($1 == "mod" || $1 == "dep") && $2 == m && $3 == v { found = 1 } END { exit !found }'
}

# ensure NAME BUILD_FN: runs BUILD_FN unless NAME is already built at its pinned version (the
# caller's binary_ok NAME says), then checks the result. FORCE=1 rebuilds.
ensure() {
  local name="$1" fn="$2"
  if ((FORCE == 0)) && binary_ok "$name"; then
    bg_log "ok: $name"
    return 0
  fi
  bg_log "building $name (cold: minutes to tens of minutes on 2 cores) ..."
  "$fn"
  binary_ok "$name" || bg_die "$name was built but does not report the pinned version"
  bg_log "built $name"
}
