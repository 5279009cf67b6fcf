#!/usr/bin/env bash
# Shows which control-plane components run, whether they are healthy, and the nodes.
# Exit code 0 when every component is running and healthy, 1 otherwise.
set -euo pipefail
# shellcheck source=scripts/cluster/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=scripts/cluster/real-node.sh
source "$CLUSTER_SCRIPTS_DIR/real-node.sh"

component_table() {
  local c pid state health ok=0
  printf '%-25s %-8s %-9s %-8s %s\n' COMPONENT PID STATE HEALTH RSS_MiB
  for c in "${COMPONENTS[@]}"; do
    if pid="$(component_pid "$c")"; then
      state=running
      if component_healthy "$c"; then health=ok; else health=FAIL && ok=1; fi
      printf '%-25s %-8s %-9s %-8s %s\n' "$c" "$pid" "$state" "$health" "$(rss_mib "$pid")"
    else
      ok=1
      printf '%-25s %-8s %-9s %-8s %s\n' "$c" - stopped - -
    fi
  done
  if real_node_configured; then
    real_node_status
    real_node_healthy || ok=1
  fi
  return "$ok"
}

main() {
  echo "versions:   $VERSION_KEY"
  echo "binaries:   $BIN_DIR $(all_binaries_ok && echo '(complete)' || echo '(INCOMPLETE: run npm run cluster:build)')"
  echo "run dir:    $RUN_DIR"
  echo "kubeconfig: $KUBECONFIG_FILE"
  echo "api:        https://127.0.0.1:$API_PORT"
  echo
  local rc=0
  component_table || rc=1
  if [[ "$rc" == 0 ]]; then
    echo
    kubectl_c get nodes -L stackwright.io/e2e-profile -o wide 2>&1 | cut -c1-160 || rc=1
  fi
  return "$rc"
}

main "$@"
