#!/usr/bin/env bash
# Installs the Debian packages the test cluster's real node runs on: containerd and runc (the
# container runtime), the CNI plugins (pod network), iptables and conntrack (kube-proxy's
# Service rules), socat (the API relay and `kubectl port-forward`). Idempotent: when every
# package is installed it returns in well under a second without touching apt.
#
#   node-deps.sh           install what is missing (needs root)
#   node-deps.sh --check   exit 1 and list what is missing, install nothing
set -euo pipefail

PACKAGES=(containerd runc containernetworking-plugins iptables conntrack socat)

log() { printf '[node-deps] %s\n' "$*" >&2; }

missing_packages() {
  local p
  for p in "${PACKAGES[@]}"; do
    [[ "$(dpkg-query -W -f '${db:Status-Status}' "$p" 2>/dev/null)" == installed ]] || echo "$p"
  done
}

main() {
  local missing start
  mapfile -t missing < <(missing_packages)
  if ((${#missing[@]} == 0)); then
    log "installed: ${PACKAGES[*]}"
    return 0
  fi
  if [[ "${1:-}" == --check ]]; then
    log "missing: ${missing[*]} (install with: bash scripts/cluster/node-deps.sh)"
    return 1
  fi
  [[ "$(id -u)" == 0 ]] || {
    log "ERROR: installing ${missing[*]} needs root"
    exit 1
  }
  start="$(date +%s)"
  log "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >&2
  # --no-install-recommends: containerd recommends nothing the node needs.
  # Lock::Timeout: wait for another apt run (e.g. an image build) instead of failing at once.
  apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=900 "${missing[@]}" >&2
  log "installed ${missing[*]} in $(($(date +%s) - start))s"
}

main "$@"
