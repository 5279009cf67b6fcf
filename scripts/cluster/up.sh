#!/usr/bin/env bash
# Starts the local e2e control plane on 127.0.0.1: etcd -> kube-apiserver ->
# kube-controller-manager, kube-scheduler, kwok; then creates the simulated nodes and waits
# until the cluster is usable. Prints the admin kubeconfig path as the last stdout line.
#
#   up.sh                 start (or return at once if already running and healthy)
#   up.sh --real          also start a real node (containerd + kubelet, see real-node.sh; root)
#   up.sh --reset-nodes   additionally delete and re-create the simulated nodes
#
# Environment (all optional):
#   STACKWRIGHT_CLUSTER_RUN     run dir (state, pki, logs)     default ~/.cache/stackwright/run
#   STACKWRIGHT_CLUSTER_CACHE   binary cache                   default ~/.cache/stackwright/cluster
#   STACKWRIGHT_CLUSTER_NODES   all (default) | none | comma list of profiles (control,compute,network,plain)
#                               none = same nodes, but without any Yaook label or taint;
#                               with a real node the default is compute,network,plain (it is the control node)
#   STACKWRIGHT_CLUSTER_REAL_NODE=1   same as --real
#   STACKWRIGHT_CLUSTER_{API,ETCD,ETCD_PEER,KCM,SCHEDULER,KWOK}_PORT   ports (see lib.sh)
set -euo pipefail
# shellcheck source=scripts/cluster/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=scripts/cluster/real-node.sh
source "$CLUSTER_SCRIPTS_DIR/real-node.sh"

NODES_DIR="$CLUSTER_SCRIPTS_DIR/nodes"
NODE_SELECTOR="stackwright.io/e2e-node=true"
RESET_NODES=0
REAL_NODE="${STACKWRIGHT_CLUSTER_REAL_NODE:-0}"
START_TS="$(now)"

# --- preconditions -----------------------------------------------------------------
ensure_binaries() {
  # A kwok-only cluster needs only the control plane: start it while a background build is still
  # building the real node's binaries (CI overlaps the kwok e2e suite with that build).
  if ((REAL_NODE == 0)) && bg_running && control_plane_ok; then
    log "control-plane binaries ready; the background build is still building the real node's"
    return
  fi
  if all_binaries_ok; then
    # Cheap (~1 s): re-assembles the kwok stage file so edits in scripts/cluster/kwok/ apply.
    bash "$CLUSTER_SCRIPTS_DIR/build.sh" >&2
    return
  fi
  if bg_running; then
    log "a background build is running; waiting for it (log: $BUILD_LOG)"
    bash "$CLUSTER_SCRIPTS_DIR/build.sh" --wait >&2
  else
    log "binaries missing in $BIN_DIR: building (cold build takes 15-30 min on 2 cores)"
  fi
  bash "$CLUSTER_SCRIPTS_DIR/build.sh" >&2
}

port_in_use() { (: >"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

check_ports() {
  local p
  for p in "$ETCD_PORT" "$ETCD_PEER_PORT" "$API_PORT" "$KCM_PORT" "$SCHED_PORT" "$KWOK_PORT"; do
    port_in_use "$p" && die "port 127.0.0.1:$p is already in use (another cluster?). Stop it or set STACKWRIGHT_CLUSTER_*_PORT (see scripts/cluster/lib.sh)"
  done
  return 0
}

# --- PKI ---------------------------------------------------------------------------
# One CA signs the apiserver serving cert and the admin client cert (O=system:masters,
# so the harness bypasses RBAC). A separate RSA key pair signs service-account tokens.
gen_pki() {
  mkdir -p "$PKI_DIR"
  (
    cd "$PKI_DIR"
    umask 077
    printf 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign,digitalSignature\nsubjectKeyIdentifier=hash\n' >ca.ext
    printf '%s\n' 'basicConstraints=critical,CA:FALSE' 'keyUsage=critical,digitalSignature,keyEncipherment' \
      'extendedKeyUsage=serverAuth' 'authorityKeyIdentifier=keyid' \
      "subjectAltName=DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local,IP:127.0.0.1,IP:10.96.0.1,IP:$NODE_GATEWAY" >server.ext
    printf 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\nauthorityKeyIdentifier=keyid\n' >client.ext
    openssl genrsa -out ca.key 2048
    openssl req -new -key ca.key -subj "/CN=stackwright-e2e-ca" -out ca.csr
    openssl x509 -req -in ca.csr -signkey ca.key -days 3650 -sha256 -extfile ca.ext -out ca.crt
    openssl genrsa -out apiserver.key 2048
    openssl req -new -key apiserver.key -subj "/CN=kube-apiserver" -out apiserver.csr
    openssl x509 -req -in apiserver.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 3650 -sha256 -extfile server.ext -out apiserver.crt
    openssl genrsa -out admin.key 2048
    openssl req -new -key admin.key -subj "/O=system:masters/CN=stackwright-e2e-admin" -out admin.csr
    openssl x509 -req -in admin.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 3650 -sha256 -extfile client.ext -out admin.crt
    # Front-proxy client: lets the apiserver proxy to aggregated API servers and publishes the
    # request-header CA that controller-manager/scheduler expect (else they log errors).
    openssl genrsa -out front-proxy-client.key 2048
    openssl req -new -key front-proxy-client.key -subj "/CN=front-proxy-client" -out front-proxy-client.csr
    openssl x509 -req -in front-proxy-client.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 3650 -sha256 -extfile client.ext -out front-proxy-client.crt
    openssl genrsa -out sa.key 2048
    openssl rsa -in sa.key -pubout -out sa.pub
    openssl verify -CAfile ca.crt apiserver.crt admin.crt front-proxy-client.crt >/dev/null
    rm -f ./*.csr ./*.ext ca.srl
  ) >"$LOG_DIR/pki.log" 2>&1 || die "PKI generation failed, see $LOG_DIR/pki.log"
}

# Metadata level for every request: enough to count API calls per object (verb, resource,
# name, user, code) without logging bodies. RequestReceived is dropped so each request is
# logged once (ResponseComplete; watches also ResponseStarted).
write_audit_policy() {
  cat >"$RUN_DIR/audit-policy.yaml" <<'EOF'
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages:
- RequestReceived
rules:
- level: Metadata
EOF
}

# Facts for other tools (TS helpers, benchmarks) so they need not re-derive paths/ports.
write_env_file() {
  cat >"$RUN_DIR/cluster.env" <<EOF
KUBECONFIG=$KUBECONFIG_FILE
STACKWRIGHT_CLUSTER_BIN=$BIN_DIR
STACKWRIGHT_CLUSTER_LOGS=$LOG_DIR
STACKWRIGHT_CLUSTER_AUDIT_LOG=$LOG_DIR/audit.log
STACKWRIGHT_CLUSTER_API_URL=https://127.0.0.1:$API_PORT
STACKWRIGHT_CLUSTER_VERSIONS=$VERSION_KEY
EOF
  if ((REAL_NODE == 1)); then
    printf '%s\n' "STACKWRIGHT_CLUSTER_REAL_NODE=$NODE_NAME" \
      "STACKWRIGHT_CLUSTER_CONTAINERD_SOCKET=$CONTAINERD_SOCKET" >>"$RUN_DIR/cluster.env"
  fi
}

# --- processes ---------------------------------------------------------------------
# setsid: own session, so the process outlives the caller (jest global setup, CI step)
# and never gets the caller's SIGHUP/SIGINT. All output goes to $LOG_DIR/<name>.log.
start_component() {
  local name="$1"
  shift
  log "starting $name"
  # 8>&- : the daemon must not inherit the up.sh lock, or it would hold it for its lifetime.
  setsid "$BIN_DIR/$name" "$@" >>"$LOG_DIR/$name.log" 2>&1 </dev/null 8>&- &
  echo $! >"$(pid_file "$name")"
}

wait_healthy() { wait_until_healthy "$1" "$2" component_healthy component_pid; }

start_etcd() {
  # Fresh data dir per cluster; --unsafe-no-fsync because losing test data on a crash is fine.
  start_component etcd \
    --name=stackwright-e2e --data-dir="$ETCD_DATA_DIR" \
    --listen-client-urls="http://127.0.0.1:$ETCD_PORT" --advertise-client-urls="http://127.0.0.1:$ETCD_PORT" \
    --listen-peer-urls="http://127.0.0.1:$ETCD_PEER_PORT" --initial-advertise-peer-urls="http://127.0.0.1:$ETCD_PEER_PORT" \
    --initial-cluster="stackwright-e2e=http://127.0.0.1:$ETCD_PEER_PORT" \
    --unsafe-no-fsync=true --auto-compaction-mode=periodic --auto-compaction-retention=5m \
    --quota-backend-bytes=2147483648 --log-level=warn
  wait_healthy etcd 30
}

start_apiserver() {
  # --advertise-address=127.0.0.1 avoids the default-route lookup; the endpoint reconciler
  # rejects loopback addresses, so it is switched off (the `kubernetes` Service has no endpoints).
  # A real node replaces both (real_node_apiserver_flags); later flags win.
  local node_flags=()
  ((REAL_NODE == 1)) && mapfile -t node_flags < <(real_node_apiserver_flags)
  start_component kube-apiserver \
    --etcd-servers="http://127.0.0.1:$ETCD_PORT" \
    --bind-address=127.0.0.1 --secure-port="$API_PORT" \
    --advertise-address=127.0.0.1 --endpoint-reconciler-type=none \
    --kubelet-preferred-address-types=InternalIP \
    --tls-cert-file="$PKI_DIR/apiserver.crt" --tls-private-key-file="$PKI_DIR/apiserver.key" \
    --client-ca-file="$PKI_DIR/ca.crt" \
    --requestheader-client-ca-file="$PKI_DIR/ca.crt" --requestheader-allowed-names=front-proxy-client \
    --requestheader-username-headers=X-Remote-User --requestheader-group-headers=X-Remote-Group \
    --requestheader-extra-headers-prefix=X-Remote-Extra- \
    --proxy-client-cert-file="$PKI_DIR/front-proxy-client.crt" --proxy-client-key-file="$PKI_DIR/front-proxy-client.key" \
    --service-account-issuer=https://kubernetes.default.svc.cluster.local \
    --service-account-key-file="$PKI_DIR/sa.pub" --service-account-signing-key-file="$PKI_DIR/sa.key" \
    --service-cluster-ip-range=10.96.0.0/16 \
    --authorization-mode=Node,RBAC --allow-privileged=true --profiling=false \
    --audit-policy-file="$RUN_DIR/audit-policy.yaml" --audit-log-path="$LOG_DIR/audit.log" \
    --audit-log-format=json --audit-log-maxsize=1024 --audit-log-maxbackup=3 \
    "${node_flags[@]}" --v=1
  wait_healthy kube-apiserver 180
}

start_controller_manager() {
  # --leader-elect=false: one instance, and no waiting out a stale lease after a crash.
  start_component kube-controller-manager \
    --kubeconfig="$KUBECONFIG_FILE" \
    --authentication-kubeconfig="$KUBECONFIG_FILE" --authorization-kubeconfig="$KUBECONFIG_FILE" \
    --bind-address=127.0.0.1 --secure-port="$KCM_PORT" \
    --leader-elect=false --controllers='*' --use-service-account-credentials=false \
    --service-account-private-key-file="$PKI_DIR/sa.key" --root-ca-file="$PKI_DIR/ca.crt" \
    --cluster-signing-cert-file="$PKI_DIR/ca.crt" --cluster-signing-key-file="$PKI_DIR/ca.key" \
    --profiling=false --v=1
}

start_scheduler() {
  start_component kube-scheduler \
    --kubeconfig="$KUBECONFIG_FILE" \
    --authentication-kubeconfig="$KUBECONFIG_FILE" --authorization-kubeconfig="$KUBECONFIG_FILE" \
    --bind-address=127.0.0.1 --secure-port="$SCHED_PORT" \
    --leader-elect=false --profiling=false --v=1
}

start_kwok() {
  # Only nodes annotated kwok.x-k8s.io/node=fake are simulated, so a test can add a node
  # that stays NotReady. Pod IPs come from 10.244/16 (just strings, nothing routes).
  start_component kwok \
    --kubeconfig="$KUBECONFIG_FILE" --config="$KWOK_STAGES_FILE" \
    --manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake \
    --node-lease-duration-seconds=40 \
    --cidr=10.244.0.0/16 --node-ip=127.0.0.1 \
    --server-address="127.0.0.1:$KWOK_PORT"
}

# --- cluster contents ----------------------------------------------------------------
selected_profiles() {
  local sel="${STACKWRIGHT_CLUSTER_NODES:-all}" f name
  for f in "$NODES_DIR"/*.yaml; do
    name="$(basename "$f" .yaml)"
    name="${name#*-}" # 10-control.yaml -> control
    case "$sel" in
      all | none) echo "$f" ;;
      *) [[ ",$sel," == *",$name,"* ]] && echo "$f" ;;
    esac
  done
  return 0
}

validate_node_selection() {
  local sel="${STACKWRIGHT_CLUSTER_NODES:-all}" p known
  [[ "$sel" == all || "$sel" == none ]] && return 0
  known="$(for f in "$NODES_DIR"/*.yaml; do n="$(basename "$f" .yaml)" && echo "${n#*-}"; done | tr '\n' ' ')"
  IFS=',' read -ra wanted <<<"$sel"
  for p in "${wanted[@]}"; do
    [[ " $known" == *" $p "* ]] || die "unknown node profile '$p' in STACKWRIGHT_CLUSTER_NODES (known: ${known}all, none)"
  done
}

# STACKWRIGHT_CLUSTER_NODES=none: same nodes, every *.yaook.cloud/* label and taint removed.
strip_yaook_placement() {
  local node keys taints
  for node in $(kubectl_c get nodes -l "$NODE_SELECTOR" -o name); do
    keys="$(kubectl_c get "$node" -o go-template='{{range $k, $v := .metadata.labels}}{{$k}}{{"\n"}}{{end}}' | grep 'yaook\.cloud/' || true)"
    if [[ -n "$keys" ]]; then
      # shellcheck disable=SC2046
      kubectl_c label "$node" $(sed 's/$/-/' <<<"$keys") >/dev/null
    fi
    taints="$(kubectl_c get "$node" -o go-template='{{range .spec.taints}}{{.key}}{{"\n"}}{{end}}' | grep 'yaook\.cloud/' | sort -u || true)"
    if [[ -n "$taints" ]]; then
      # shellcheck disable=SC2046
      kubectl_c taint nodes "${node#node/}" $(sed 's/$/-/' <<<"$taints") >/dev/null
    fi
  done
}

no_not_ready_taints() {
  ! kubectl_c get nodes -l "$NODE_SELECTOR" -o jsonpath='{range .items[*]}{.spec.taints[*].key}{"\n"}{end}' |
    grep -q 'node.kubernetes.io/not-ready\|node.kubernetes.io/unreachable'
}

apply_nodes() {
  local files
  mapfile -t files < <(selected_profiles)
  if ((RESET_NODES == 1)); then
    kubectl_c delete nodes -l "$NODE_SELECTOR" --wait=true >/dev/null
  fi
  ((${#files[@]} > 0)) || return 0
  local args=() f
  for f in "${files[@]}"; do args+=(-f "$f"); done
  kubectl_c apply "${args[@]}" >/dev/null
  if [[ "${STACKWRIGHT_CLUSTER_NODES:-all}" == none ]]; then strip_yaook_placement; fi
  log "nodes: $(kubectl_c get nodes -l "$NODE_SELECTOR" -o name | wc -l) (${STACKWRIGHT_CLUSTER_NODES:-all})"
}

wait_usable() {
  local t0
  t0="$(now)"
  wait_for 60 "service account default/default" kubectl_c -n default get serviceaccount default ||
    die "the default ServiceAccount never appeared; see $LOG_DIR/kube-controller-manager.log"
  if [[ -n "$(kubectl_c get nodes -l "$NODE_SELECTOR" -o name)" ]]; then
    kubectl_c wait --for=condition=Ready nodes -l "$NODE_SELECTOR" --timeout=60s >/dev/null ||
      die "nodes not Ready after 60s; see $LOG_DIR/kwok.log"
    wait_for 60 "node.kubernetes.io/not-ready taints to be removed" no_not_ready_taints ||
      die "not-ready taints still present; see $LOG_DIR/kube-controller-manager.log"
  fi
  log "default SA present, nodes Ready and untainted (+$(elapsed "$t0")s)"
}

cluster_healthy() {
  local c
  [[ -s "$KUBECONFIG_FILE" ]] || return 1
  for c in "${COMPONENTS[@]}"; do
    component_pid "$c" >/dev/null && component_healthy "$c" || return 1
  done
  # A cluster with a real node serves callers that do not need one too, not the other way round.
  ((REAL_NODE == 0)) || real_node_healthy
}

any_component_running() {
  local c
  for c in "${COMPONENTS[@]}"; do component_pid "$c" >/dev/null && return 0; done
  return 1
}

start_cluster() {
  ensure_binaries
  if any_component_running || real_node_configured; then
    log "cluster partly running or unhealthy: stopping it first"
    STACKWRIGHT_CLUSTER_LOCK_HELD=1 bash "$CLUSTER_SCRIPTS_DIR/down.sh" --keep-logs >&2
  fi
  check_ports
  ((REAL_NODE == 0)) || real_node_preflight
  validate_node_selection
  # Fresh state every start; old logs move aside so a failed run's logs survive one restart.
  rm -rf "$ETCD_DATA_DIR" "$PKI_DIR" "$PID_DIR" "$LOG_DIR.prev"
  [[ -d "$LOG_DIR" ]] && mv "$LOG_DIR" "$LOG_DIR.prev"
  mkdir -p "$LOG_DIR" "$PID_DIR"
  gen_pki
  write_kubeconfig_file "$KUBECONFIG_FILE" admin
  if ((REAL_NODE == 1)); then
    mkdir -p "$NODE_DIR"
    real_node_pki
  fi
  write_audit_policy
  write_env_file

  start_etcd
  start_apiserver
  start_controller_manager
  start_scheduler
  start_kwok
  wait_healthy kube-controller-manager 60
  wait_healthy kube-scheduler 60
  wait_healthy kwok 60
  kubectl_c apply -f "$CLUSTER_SCRIPTS_DIR/manifests/" >/dev/null
  apply_nodes
  wait_usable
  ((REAL_NODE == 0)) || real_node_up
  log "cluster usable in $(elapsed "$START_TS")s (API https://127.0.0.1:$API_PORT, logs $LOG_DIR)"
}

main() {
  case "${1:-}" in
    "") ;;
    --real) REAL_NODE=1 ;;
    --reset-nodes) RESET_NODES=1 ;;
    -h | --help) sed -n '2,19p' "$0" && exit 0 ;;
    *) die "unknown option $1 (try --help)" ;;
  esac
  require_cmd openssl "install openssl (Debian: apt-get install openssl)"
  require_cmd curl "install curl (Debian: apt-get install curl)"
  if ((REAL_NODE == 1)); then
    # The real node is the control node; kwok keeps the other profiles.
    export STACKWRIGHT_CLUSTER_NODES="${STACKWRIGHT_CLUSTER_NODES:-compute,network,plain}"
  fi
  mkdir -p "$(dirname "$RUN_DIR")"
  # Serialise concurrent `up.sh` calls (e.g. two jest runs); the lock lives next to the run dir
  # because down.sh removes the run dir itself.
  exec 8>"$RUN_DIR.up-lock"
  flock -w 1800 8 || die "timed out waiting for another up.sh ($RUN_DIR.up-lock)"

  if cluster_healthy; then
    log "cluster already running and healthy"
    if ((RESET_NODES == 1)); then
      validate_node_selection
      apply_nodes
      wait_usable
    fi
  else
    start_cluster
  fi
  echo "$KUBECONFIG_FILE"
}

main "$@"
