# shellcheck shell=bash
# Detached, resumable builds shared by scripts/cluster/build.sh, scripts/pulumi/build.sh and
# scripts/images/build.sh: `--background` starts the caller's own foreground build under setsid
# (it survives the calling shell, a CI step or a 10-minute tool limit), `--wait` blocks until it
# ends and fails with the log's tail when it failed. Sourced, never executed.
#
# The caller sets BG_NAME (log prefix), BG_DIR (cache dir holding build.{log,pid,rc}) and
# defines bg_log/bg_die or uses the defaults below.

bg_log() { printf '[%s] %s\n' "$BG_NAME" "$*" >&2; }
bg_die() {
  printf '[%s] ERROR: %s\n' "$BG_NAME" "$*" >&2
  exit 1
}

# True while a process exists and has not exited (a zombie has exited; kill -0 alone says alive).
bg_pid_alive() {
  local state
  kill -0 "$1" 2>/dev/null || return 1
  state="$({ awk '{ print $3 }' "/proc/$1/stat"; } 2>/dev/null)" || return 1
  [[ "$state" != Z && "$state" != X ]]
}

# True while the background build started by bg_start runs.
bg_running() {
  [[ -s "$BG_DIR/build.pid" ]] && bg_pid_alive "$(cat "$BG_DIR/build.pid")"
}

# bg_start SCRIPT [ARGS...]: run SCRIPT ARGS detached unless a build already runs.
bg_start() {
  mkdir -p "$BG_DIR"
  if bg_running; then
    bg_log "background build already running (pid $(cat "$BG_DIR/build.pid")), log: $BG_DIR/build.log"
    return 0
  fi
  rm -f "$BG_DIR/build.rc"
  setsid nohup bash -c '"$@"; echo $? >"'"$BG_DIR"'/build.rc"' _ "$@" >"$BG_DIR/build.log" 2>&1 </dev/null &
  echo $! >"$BG_DIR/build.pid"
  bg_log "background build started (pid $!), log: $BG_DIR/build.log"
}

# bg_renice N: give a running background build (its whole process group: the go command, its
# compilers and what it starts next) the niceness N. Lowering it needs root; without, it says so.
bg_renice() {
  local pid
  [[ -s "$BG_DIR/build.pid" ]] || return 0
  pid="$(cat "$BG_DIR/build.pid")"
  bg_pid_alive "$pid" || return 0
  if renice -n "$1" -g "$pid" >/dev/null 2>&1; then
    bg_log "background build (pid $pid) now at niceness $1"
  else
    bg_log "could not renice the background build (pid $pid) to $1 (lowering needs root); it goes on as it was"
  fi
}

# bg_wait: wait for a background build started by bg_start; exit 1 with the log's tail if it failed.
bg_wait() {
  local pid rc
  if [[ -s "$BG_DIR/build.pid" ]]; then
    pid="$(cat "$BG_DIR/build.pid")"
    while bg_pid_alive "$pid"; do sleep 2; done
  fi
  if [[ -s "$BG_DIR/build.rc" ]]; then
    rc="$(cat "$BG_DIR/build.rc")"
    if [[ "$rc" != 0 ]]; then
      tail -n 30 "$BG_DIR/build.log" >&2 || true
      bg_die "background build failed (exit $rc), full log: $BG_DIR/build.log"
    fi
  fi
}

# bg_wait_for CHECK...: like bg_wait, but returns as soon as the command CHECK succeeds while the
# background build still runs (a build whose first products a caller can use before it ends).
bg_wait_for() {
  while bg_running; do
    "$@" && return 0
    sleep 5
  done
  bg_wait
}
