#!/usr/bin/env bash
# Stops the local e2e control plane (reverse start order: kwok, scheduler, KCM, apiserver,
# etcd) after the real node if there is one (restoring what it changed on the host, see
# real-node.sh), verifies by pid that nothing is left, and removes the run state.
#
#   down.sh               stop and remove $STACKWRIGHT_CLUSTER_RUN entirely
#   down.sh --keep-logs   stop, remove state but keep $RUN/logs (for post-mortems)
set -euo pipefail
# shellcheck source=scripts/cluster/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=scripts/cluster/real-node.sh
source "$CLUSTER_SCRIPTS_DIR/real-node.sh"

KEEP_LOGS=0

# Pids of processes started from this cache's binaries for this run dir, even if their
# pid file is gone (e.g. up.sh killed between start and writing state). Matching on the
# absolute run-dir path keeps other clusters and unrelated processes out.
stray_pids() {
  local p cmd
  for p in /proc/[0-9]*; do
    cmd="$({ tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null)" || continue
    [[ "$cmd" == "$BIN_DIR/"* && "$cmd" == *"$RUN_DIR/"* ]] && echo "${p#/proc/}"
  done
  return 0
}

stop_all() {
  local i name pid
  for ((i = ${#COMPONENTS[@]} - 1; i >= 0; i--)); do
    name="${COMPONENTS[i]}"
    if pid="$(component_pid "$name")"; then
      stop_pid "$name" "$pid"
    fi
  done
  for pid in $(stray_pids); do
    stop_pid "stray process" "$pid"
  done
  [[ -z "$(stray_pids)" ]] || die "processes still running after stop: $(stray_pids | tr '\n' ' ')"
}

remove_state() {
  [[ -d "$RUN_DIR" ]] || return 0
  if ((KEEP_LOGS == 1)); then
    find "$RUN_DIR" -mindepth 1 -maxdepth 1 ! -name logs ! -name logs.prev -exec rm -rf {} +
    log "run state removed, logs kept in $LOG_DIR"
  else
    rm -rf "$RUN_DIR"
    log "run dir $RUN_DIR removed"
  fi
}

main() {
  case "${1:-}" in
    "") ;;
    --keep-logs) KEEP_LOGS=1 ;;
    -h | --help) sed -n '2,6p' "$0" && exit 0 ;;
    *) die "unknown option $1 (try --help)" ;;
  esac
  # Serialise with up.sh (it calls down.sh itself while holding the lock, and says so).
  if [[ "${STACKWRIGHT_CLUSTER_LOCK_HELD:-}" != 1 ]]; then
    mkdir -p "$(dirname "$RUN_DIR")"
    exec 8>"$RUN_DIR.up-lock"
    flock -w 600 8 || die "timed out waiting for a running up.sh ($RUN_DIR.up-lock)"
  fi
  real_node_down
  stop_all
  remove_state
}

main "$@"
