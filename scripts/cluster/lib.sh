# shellcheck shell=bash
# Shared settings and helpers for the local e2e control plane (scripts/cluster/*.sh).
# Sourced, never executed. Callers set `set -euo pipefail` themselves.

# --- pinned versions (bump together; see docs/test-cluster.md) -------------------
# k8s and its staging modules move in lock-step: v1.36.3 <-> v0.36.3 (scripts/cluster/modules/k8s-bins/go.mod).
K8S_VERSION="v1.36.3"
# etcd version = scripts/cluster/modules/etcd-bin/go.mod require line; 3.6.8 is what k8s 1.36 vendors and kubeadm 1.36 supports.
ETCD_VERSION="v3.6.8"
# kwok v0.8.0 is built against k8s 1.36 libraries; standalone kwok needs explicit stages (see kwok-stages.sh).
KWOK_VERSION="v0.8.0"
GO_MIN_MINOR=26
# The real node's add-ons, each checked by its own --version (so the cache key above stays put):
# CoreDNS = scripts/cluster/modules/coredns/go.mod require line; local-path-provisioner has no replaces,
# so `go install ...@version` builds it; the pause program's version is in scripts/cluster/modules/pause/.
COREDNS_VERSION="v1.15.0"
LOCAL_PATH_VERSION="v0.0.30"
PAUSE_VERSION="1"

CLUSTER_SCRIPTS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$CLUSTER_SCRIPTS_DIR/../.." && pwd)"
K8S_WRAPPER_DIR="$REPO_ROOT/scripts/cluster/modules/k8s-bins"
ETCD_WRAPPER_DIR="$REPO_ROOT/scripts/cluster/modules/etcd-bin"
COREDNS_WRAPPER_DIR="$REPO_ROOT/scripts/cluster/modules/coredns"
PAUSE_SOURCE_DIR="$REPO_ROOT/scripts/cluster/modules/pause"

# Cache lives outside the repository and is keyed by every pinned version, so a version
# bump never reuses stale binaries and nothing built can be committed by accident.
CACHE_ROOT="${STACKWRIGHT_CLUSTER_CACHE:-$HOME/.cache/stackwright/cluster}"
VERSION_KEY="k8s-${K8S_VERSION}_etcd-${ETCD_VERSION}_kwok-${KWOK_VERSION}"
CACHE_DIR="$CACHE_ROOT/$VERSION_KEY"
BIN_DIR="$CACHE_DIR/bin"
KWOK_STAGES_FILE="$CACHE_DIR/kwok-stages.yaml"
BUILD_LOG="$CACHE_DIR/build.log"
BUILD_TIMES_FILE="$CACHE_DIR/build-times.txt"
BUILD_LOCK_FILE="$CACHE_DIR/build.lock"
# --background/--wait of build.sh: the detached-build helpers every build script shares.
# shellcheck source=scripts/lib/background.sh
source "$CLUSTER_SCRIPTS_DIR/../lib/background.sh"
BG_NAME=cluster
BG_DIR="$CACHE_DIR"
# The pod sandbox image, a docker-archive the real node imports into containerd.
PAUSE_IMAGE="stackwright.local/pause:$PAUSE_VERSION"
PAUSE_IMAGE_ARCHIVE="$CACHE_DIR/pause-image-$PAUSE_VERSION.tar"

# --- runtime layout ----------------------------------------------------------------
RUN_DIR="${STACKWRIGHT_CLUSTER_RUN:-$HOME/.cache/stackwright/run}"
LOG_DIR="$RUN_DIR/logs"
PID_DIR="$RUN_DIR/pids"
PKI_DIR="$RUN_DIR/pki"
ETCD_DATA_DIR="$RUN_DIR/etcd"
KUBECONFIG_FILE="$RUN_DIR/admin.kubeconfig"
# Ports default to unusual values so a developer's kind/k3s/minikube on 6443/2379 does not clash.
API_PORT="${STACKWRIGHT_CLUSTER_API_PORT:-16443}"
ETCD_PORT="${STACKWRIGHT_CLUSTER_ETCD_PORT:-12379}"
ETCD_PEER_PORT="${STACKWRIGHT_CLUSTER_ETCD_PEER_PORT:-12380}"
KCM_PORT="${STACKWRIGHT_CLUSTER_KCM_PORT:-10357}"
SCHED_PORT="${STACKWRIGHT_CLUSTER_SCHEDULER_PORT:-10359}"
KWOK_PORT="${STACKWRIGHT_CLUSTER_KWOK_PORT:-10347}"

# Start order; stop order is the reverse.
COMPONENTS=(etcd kube-apiserver kube-controller-manager kube-scheduler kwok)

log() { printf '[cluster] %s\n' "$*" >&2; }
die() {
  printf '[cluster] ERROR: %s\n' "$*" >&2
  exit 1
}

# Seconds since epoch with sub-second precision, for measurements in logs.
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

require_go() {
  command -v go >/dev/null 2>&1 || die "go not found: install Go >= 1.$GO_MIN_MINOR (https://go.dev/dl) and put it on PATH"
  local v minor
  v="$(GOTOOLCHAIN=local go env GOVERSION)" # e.g. go1.26.8
  minor="$(printf '%s' "$v" | sed -nE 's/^go1\.([0-9]+).*/\1/p')"
  [[ -n "$minor" && "$minor" -ge "$GO_MIN_MINOR" ]] ||
    die "go $v is too old: Kubernetes ${K8S_VERSION} needs Go >= 1.$GO_MIN_MINOR (GOTOOLCHAIN=local forbids auto-download)"
}

require_cmd() {
  command -v "$1" >/dev/null 2>&1 || die "$1 not found: $2"
}

# Expected `--version` fragment per binary; used to decide whether a cached binary is usable.
expected_version() {
  case "$1" in
    kube-apiserver | kube-controller-manager | kube-scheduler | kubelet | kube-proxy) echo "Kubernetes ${K8S_VERSION}" ;;
    kubectl) echo "Client Version: ${K8S_VERSION}" ;;
    etcd) echo "etcd Version: ${ETCD_VERSION#v}" ;;
    kwok) echo "${KWOK_VERSION}" ;;
    coredns) echo "CoreDNS-${COREDNS_VERSION#v}" ;;
    local-path-provisioner) echo "version ${LOCAL_PATH_VERSION}" ;;
    pause) echo "stackwright-pause ${PAUSE_VERSION}" ;;
    *) die "unknown binary $1" ;;
  esac
}

binary_version() {
  local bin="$BIN_DIR/$1"
  [[ -x "$bin" ]] || return 1
  case "$1" in
    kubectl) "$bin" version --client 2>/dev/null ;;
    coredns) "$bin" -version 2>/dev/null ;;
    *) "$bin" --version 2>/dev/null ;;
  esac
}

# True when the binary exists and reports the pinned version.
binary_ok() {
  local out
  out="$(binary_version "$1")" || return 1
  grep -qF -- "$(expected_version "$1")" <<<"$out"
}

# Build order: the control plane first (every e2e suite needs it, and a kwok-only cluster needs
# nothing else: `build.sh --wait control-plane`), the real node's binaries last.
CONTROL_PLANE_BINARIES=(etcd kwok kube-apiserver kube-controller-manager kube-scheduler kubectl)
REAL_NODE_BINARIES=(kubelet kube-proxy coredns local-path-provisioner pause)
ALL_BINARIES=("${CONTROL_PLANE_BINARIES[@]}" "${REAL_NODE_BINARIES[@]}")

# True when a cluster of kwok nodes can start: the control plane's binaries and kwok's stages.
control_plane_ok() {
  local b
  for b in "${CONTROL_PLANE_BINARIES[@]}"; do binary_ok "$b" || return 1; done
  [[ -s "$KWOK_STAGES_FILE" ]]
}

all_binaries_ok() {
  local b
  control_plane_ok || return 1
  for b in "${REAL_NODE_BINARIES[@]}"; do binary_ok "$b" || return 1; done
  [[ -s "$PAUSE_IMAGE_ARCHIVE" ]]
}

# --- process helpers -------------------------------------------------------------
pid_file() { echo "$PID_DIR/$1.pid"; }

# pid_matching NAME MARKER: prints the pid in NAME's pid file if that process is alive and its
# command line contains MARKER (guards against pid reuse after a reboot or crash).
pid_matching() {
  local f pid
  f="$(pid_file "$1")"
  [[ -s "$f" ]] || return 1
  pid="$(cat "$f")"
  bg_pid_alive "$pid" || return 1
  { tr '\0' ' ' <"/proc/$pid/cmdline"; } 2>/dev/null | grep -qF -- "$2" || return 1
  echo "$pid"
}

# Prints the pid of a control-plane component if it is really running.
component_pid() { pid_matching "$1" "$BIN_DIR/$1"; }

# Memory of a process in MiB (status tables, measurements).
rss_mib() { awk '/^VmRSS:/ { printf "%.0f", $2 / 1024 }' "/proc/$1/status" 2>/dev/null; }

wait_gone() {
  local pid="$1" deadline=$((SECONDS + $2))
  while bg_pid_alive "$pid"; do
    ((SECONDS >= deadline)) && return 1
    sleep 0.2
  done
}

# stop_pid NAME PID: SIGTERM, SIGKILL after STOP_TIMEOUT (default 20 s) seconds.
stop_pid() {
  local name="$1" pid="$2" t0 timeout="${STOP_TIMEOUT:-20}"
  t0="$(now)"
  kill -TERM "$pid" 2>/dev/null || return 0
  if ! wait_gone "$pid" "$timeout"; then
    log "$name (pid $pid) ignored SIGTERM for ${timeout}s: sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    wait_gone "$pid" 5 || die "$name (pid $pid) survived SIGKILL"
  fi
  log "stopped $name (pid $pid, $(elapsed "$t0")s)"
}

# write_kubeconfig_file FILE CERT: a kubeconfig for the client cert $PKI_DIR/CERT.{crt,key}.
write_kubeconfig_file() {
  cat >"$1" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: stackwright-e2e
  cluster:
    server: https://127.0.0.1:$API_PORT
    certificate-authority: $PKI_DIR/ca.crt
users:
- name: $2
  user:
    client-certificate: $PKI_DIR/$2.crt
    client-key: $PKI_DIR/$2.key
contexts:
- name: stackwright-e2e
  context:
    cluster: stackwright-e2e
    user: $2
current-context: stackwright-e2e
EOF
  chmod 600 "$1"
}

curl_api() {
  curl -fsS --max-time 5 --cacert "$PKI_DIR/ca.crt" --cert "$PKI_DIR/admin.crt" --key "$PKI_DIR/admin.key" \
    "https://127.0.0.1:$API_PORT$1"
}

kubectl_c() { "$BIN_DIR/kubectl" --kubeconfig "$KUBECONFIG_FILE" "$@"; }

# Health probe per component; exit 0 when healthy.
component_healthy() {
  case "$1" in
    etcd) curl -fsS --max-time 3 "http://127.0.0.1:$ETCD_PORT/health" 2>/dev/null | grep -q '"health":"true"' ;;
    kube-apiserver) [[ "$(curl_api /readyz 2>/dev/null)" == "ok" ]] ;;
    kube-controller-manager) [[ "$(curl -fsSk --max-time 3 "https://127.0.0.1:$KCM_PORT/healthz" 2>/dev/null)" == "ok" ]] ;;
    kube-scheduler) [[ "$(curl -fsSk --max-time 3 "https://127.0.0.1:$SCHED_PORT/healthz" 2>/dev/null)" == "ok" ]] ;;
    kwok) [[ "$(curl -fsS --max-time 3 "http://127.0.0.1:$KWOK_PORT/healthz" 2>/dev/null)" == "ok" ]] ;;
    *) return 1 ;;
  esac
}

# wait_for <timeout-seconds> <description> <command...>
wait_for() {
  local timeout="$1" what="$2"
  shift 2
  local deadline=$((SECONDS + timeout))
  until "$@" >/dev/null 2>&1; do
    if ((SECONDS >= deadline)); then
      log "timed out after ${timeout}s waiting for: $what"
      return 1
    fi
    sleep 0.5
  done
}

# wait_until_healthy NAME TIMEOUT HEALTH_FN PID_FN: waits until HEALTH_FN NAME succeeds; fails fast
# (with the log's tail) when PID_FN NAME finds the process gone or the timeout passes.
wait_until_healthy() {
  local name="$1" timeout="$2" healthy="$3" pid_of="$4" deadline=$((SECONDS + $2)) t0
  t0="$(now)"
  until "$healthy" "$name"; do
    if ! "$pid_of" "$name" >/dev/null; then
      tail -n 25 "$LOG_DIR/$name.log" >&2 || true
      die "$name exited during startup; log: $LOG_DIR/$name.log"
    fi
    if ((SECONDS >= deadline)); then
      tail -n 25 "$LOG_DIR/$name.log" >&2 || true
      die "$name not healthy after ${timeout}s; log: $LOG_DIR/$name.log"
    fi
    sleep 0.2
  done
  log "$name healthy (+$(elapsed "$t0")s)"
}
