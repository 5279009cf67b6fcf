# shellcheck shell=bash
# The test cluster's real node: containerd + the CNI bridge + kubelet + kube-proxy + CoreDNS + the
# local-path provisioner on this machine, next to the kwok nodes. Sourced by up.sh, down.sh and
# status.sh after lib.sh, never executed. Only one real node can run on a machine at a time (one
# bridge, one cgroup tree, one set of kube-proxy rules); see docs/test-cluster.md "The real node".
#
# What it changes on the host, and how real_node_down restores it:
#   sysctls  kubelet sets vm.overcommit_memory, vm.panic_on_oom, kernel.panic, kernel.panic_on_oops,
#            kernel.keys.root_max{keys,bytes}; the CNI bridge plugin sets net.ipv4.ip_forward.
#            Their values before the first start are saved in $NODE_HOST_STATE and written back.
#   network  bridge $NODE_BRIDGE with $NODE_GATEWAY, pod veths, network namespaces /run/netns/cni-*,
#            iptables/ip6tables chains KUBE-* (kubelet, kube-proxy) and CNI-*: all removed.
#   mounts   tmpfs/bind mounts under the kubelet's root dir, container rootfs and shm mounts under
#            containerd's state dir, /run/netns/cni-*: all unmounted.
#   cgroups  /sys/fs/cgroup/<controller>/kubepods (the kubelet's cgroupfs tree): removed.
#   compute  what libvirt, QEMU, Open vSwitch and the OVN metadata agent leave (QEMU processes and
#            libvirt's `machine` cgroups, instance taps and OVS devices, `ovnmeta-*` namespaces):
#            removed by name, see hypervisor-leftovers.sh.
#   files    symlinks in /var/log/containers (a kubelet constant): removed; that directory and
#            /run/netns too when the node created them.
#   /run/netns  made a shared mount of its own when the host's root is not shared (the metadata
#            agent's Bidirectional mount needs one): unmounted. Everything else lives in $NODE_DIR (removed with the run
#            dir) or $NODE_CACHE (containerd's root: imported images survive a restart).

# shellcheck source=scripts/cluster/hypervisor-leftovers.sh
source "$CLUSTER_SCRIPTS_DIR/hypervisor-leftovers.sh"

NODE_NAME="sw-real-0"
NODE_BRIDGE="sw-cni0"
NODE_CIDR="10.88.0.0/16"
# The bridge address is the node IP (kubelet refuses loopback), the cluster DNS address and where
# pods reach the API server (relay below).
NODE_GATEWAY="10.88.0.1"
NODE_DIR="$RUN_DIR/node"
NODE_CACHE="${STACKWRIGHT_NODE_CACHE:-$HOME/.cache/stackwright/node}"
NODE_HOST_STATE="$NODE_CACHE/host-state"
CONTAINERD_SOCKET="$NODE_DIR/containerd.sock"
# Local ports of the node's daemons (loopback only, except the kubelet on the node IP so the API
# server can reach it for logs/exec). Fixed: there is one real node per machine.
KUBELET_PORT=11250
KUBELET_HEALTHZ_PORT=11248
PROXY_METRICS_PORT=11249
PROXY_HEALTHZ_PORT=11256
COREDNS_HEALTH_PORT=11258
COREDNS_READY_PORT=11181
# The image local-path-provisioner's helper pods run as root (needs sh, mkdir, rm): the project's
# base image (images/minbase.toml).
NODE_HELPER_IMAGE="${STACKWRIGHT_NODE_HELPER_IMAGE:-stackwright.local/minbase:bookworm}"
# The sysctls kubelet and the bridge plugin change (see above).
NODE_SYSCTLS=(vm.overcommit_memory vm.panic_on_oom kernel.panic kernel.panic_on_oops
  kernel.keys.root_maxkeys kernel.keys.root_maxbytes net.ipv4.ip_forward)
# Start order; real_node_down stops them in reverse.
NODE_COMPONENTS=(containerd api-relay coredns kubelet kube-proxy local-path-provisioner)
NODE_LABEL_SELECTOR="stackwright.io/e2e-node=real"


ctr_c() { ctr --address "$CONTAINERD_SOCKET" --namespace k8s.io "$@"; }

# What identifies each node daemon's command line (pid-reuse guard, as component_pid does).
node_cmdline_marker() {
  case "$1" in
    containerd) echo "$NODE_DIR/containerd.toml" ;;
    api-relay) echo "TCP-LISTEN:$API_PORT,bind=$NODE_GATEWAY" ;;
    *) echo "$BIN_DIR/$1" ;;
  esac
}

node_component_pid() { pid_matching "$1" "$(node_cmdline_marker "$1")"; }

node_component_healthy() {
  case "$1" in
    containerd) ctr_c version >/dev/null 2>&1 ;;
    api-relay) curl -fsS --max-time 3 --cacert "$PKI_DIR/ca.crt" --cert "$PKI_DIR/admin.crt" \
      --key "$PKI_DIR/admin.key" "https://$NODE_GATEWAY:$API_PORT/readyz" 2>/dev/null | grep -qx ok ;;
    coredns) [[ "$(curl -fsS --max-time 3 "http://127.0.0.1:$COREDNS_READY_PORT/ready" 2>/dev/null)" == OK ]] ;;
    kubelet) [[ "$(curl -fsS --max-time 3 "http://127.0.0.1:$KUBELET_HEALTHZ_PORT/healthz" 2>/dev/null)" == ok ]] ;;
    kube-proxy) curl -fsS --max-time 3 "http://127.0.0.1:$PROXY_HEALTHZ_PORT/healthz" >/dev/null 2>&1 ;;
    # No health endpoint; it logs and retries on its own.
    local-path-provisioner) node_component_pid local-path-provisioner >/dev/null ;;
    *) return 1 ;;
  esac
}

real_node_configured() { [[ -d "$NODE_DIR" ]]; }

real_node_healthy() {
  local c
  for c in "${NODE_COMPONENTS[@]}"; do
    node_component_pid "$c" >/dev/null && node_component_healthy "$c" || return 1
  done
}

# --- preconditions -------------------------------------------------------------------
real_node_preflight() {
  [[ "$(id -u)" == 0 ]] || die "the real node needs root (containerd, bridge, iptables, mounts)"
  bash "$CLUSTER_SCRIPTS_DIR/node-deps.sh" --check ||
    die "the real node's packages are missing: bash scripts/cluster/node-deps.sh"
  if ip link show "$NODE_BRIDGE" >/dev/null 2>&1 && ! real_node_configured; then
    die "bridge $NODE_BRIDGE exists but this run dir has no real node: another real node runs on this machine (only one can); stop it with its down.sh, or remove a leftover bridge with: ip link delete $NODE_BRIDGE"
  fi
}

# --- PKI: one client identity per daemon (the API server authorizes each by name) ---------
real_node_pki() {
  (
    cd "$PKI_DIR"
    umask 077
    printf 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\nauthorityKeyIdentifier=keyid\n' >client.ext
    local name subject
    # kubelet: Node authorizer identity; kube-proxy: bound by the default system:node-proxier
    # binding; apiserver-kubelet-client: what the API server shows the kubelet (logs, exec).
    while read -r name subject; do
      openssl genrsa -out "$name.key" 2048
      openssl req -new -key "$name.key" -subj "$subject" -out "$name.csr"
      openssl x509 -req -in "$name.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -days 3650 -sha256 -extfile client.ext -out "$name.crt"
    done <<EOF
kubelet /O=system:nodes/CN=system:node:$NODE_NAME
kube-proxy /CN=system:kube-proxy
apiserver-kubelet-client /O=system:masters/CN=kube-apiserver-kubelet-client
coredns /CN=stackwright:coredns
local-path-provisioner /CN=stackwright:local-path-provisioner
EOF
    rm -f ./*.csr client.ext ca.srl
  ) >>"$LOG_DIR/pki.log" 2>&1 || die "real node PKI generation failed, see $LOG_DIR/pki.log"
  local name
  for name in kubelet kube-proxy coredns local-path-provisioner; do
    write_kubeconfig_file "$NODE_DIR/$name.kubeconfig" "$name"
  done
}

# The API server flags the real node needs: pods reach it through the relay on the bridge
# address, which the `kubernetes` Service's endpoints must then name; `kubectl logs/exec` dial
# the kubelet by its InternalIP (the node name does not resolve) with their own client cert.
real_node_apiserver_flags() {
  printf '%s\n' "--advertise-address=$NODE_GATEWAY" --endpoint-reconciler-type=lease \
    "--kubelet-client-certificate=$PKI_DIR/apiserver-kubelet-client.crt" \
    "--kubelet-client-key=$PKI_DIR/apiserver-kubelet-client.key"
}

# --- host state ----------------------------------------------------------------------
save_host_state() {
  # Kept from the first start until a down restores it, so a crashed run cannot overwrite the
  # host's original values with the kubelet's.
  [[ -s "$NODE_HOST_STATE" ]] && return 0
  mkdir -p "$NODE_CACHE"
  {
    local s
    for s in "${NODE_SYSCTLS[@]}"; do echo "sysctl $s $(sysctl -n "$s")"; done
    [[ -d /var/log/containers ]] || echo "created-dir /var/log/containers"
    # The CNI's pod namespaces go in it; the node makes it a shared mount when it is not on one.
    [[ -d /run/netns ]] || echo "created-dir /run/netns"
    netns_on_shared_mount || echo "shared-mount /run/netns"
  } >"$NODE_HOST_STATE.tmp"
  mv -f "$NODE_HOST_STATE.tmp" "$NODE_HOST_STATE"
}

restore_host_state() {
  [[ -s "$NODE_HOST_STATE" ]] || return 0
  local kind key value
  while read -r kind key value; do
    case "$kind" in
      sysctl) sysctl -qw "$key=$value" || log "could not restore sysctl $key=$value" ;;
      created-dir)
        mountpoint -q "$key" && umount "$key"
        rmdir "$key" 2>/dev/null || true
        ;;
      shared-mount) ! mountpoint -q "$key" || umount "$key" || umount -l "$key" ;;
    esac
  done <"$NODE_HOST_STATE"
  rm -f "$NODE_HOST_STATE"
  log "host sysctls restored"
}

# The OVN metadata agent mounts /run/netns with Bidirectional propagation (the namespaces it makes
# for instances' metadata must be seen by the host), which the container runtime allows only on a
# shared mount. A host whose root is shared (systemd's default) has one; on a host whose root is
# private /run/netns becomes a shared mount of its own, as `ip netns add` makes it.
netns_on_shared_mount() {
  local dir=/run/netns
  [[ -d "$dir" ]] || dir=/run
  [[ "$(findmnt -no PROPAGATION --target "$dir")" == *shared* ]]
}

share_netns_dir() {
  mkdir -p /run/netns
  netns_on_shared_mount && return 0
  mount --rbind /run/netns /run/netns && mount --make-rshared /run/netns
  log "/run/netns made a shared mount (the host's root is not)"
}

# --- processes -----------------------------------------------------------------------
start_node_component() {
  local name="$1"
  shift
  log "starting $name"
  setsid "$@" >>"$LOG_DIR/$name.log" 2>&1 </dev/null 8>&- &
  echo $! >"$(pid_file "$name")"
}

wait_node_healthy() { wait_until_healthy "$1" "$2" node_component_healthy node_component_pid; }

start_containerd() {
  mkdir -p "$NODE_CACHE/containerd" "$NODE_DIR/containerd-state" "$NODE_DIR/cni/net.d"
  cat >"$NODE_DIR/containerd.toml" <<EOF
version = 2
# Images persist across restarts in the node cache; everything else is per run.
root = "$NODE_CACHE/containerd"
state = "$NODE_DIR/containerd-state"
[grpc]
  address = "$CONTAINERD_SOCKET"
[plugins."io.containerd.grpc.v1.cri"]
  # No registry is reachable: the sandbox image is built and imported locally (build.sh).
  sandbox_image = "$PAUSE_IMAGE"
  stream_server_address = "127.0.0.1"
  # cgroup v1 without systemd as init: the cgroupfs driver, like the kubelet.
  systemd_cgroup = false
  tolerate_missing_hugetlb_controller = true
  disable_hugetlb_controller = true
  # Root in this kind of VM lacks CAP_SYS_RESOURCE; sandboxes' oom_score_adj of -998 would fail
  # every pod with "can't get final child's PID from pipe: EOF".
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$NODE_DIR/cni/net.d"
    max_conf_num = 1
EOF
  local logged=0
  [[ -f "$LOG_DIR/containerd.log" ]] && logged="$(wc -l <"$LOG_DIR/containerd.log")"
  start_node_component containerd containerd --config "$NODE_DIR/containerd.toml"
  wait_node_healthy containerd 60
  # containerd answers before its CRI has recovered the node's containers, and a kubelet started
  # then exits ("server is not initialized yet"): wait for the CRI's last start-up step.
  wait_for 60 "containerd's CRI to start" cri_started "$logged" ||
    die "containerd's CRI did not start; see $LOG_DIR/containerd.log"
  if ! ctr_c images ls -q "name==$PAUSE_IMAGE" | grep -q .; then
    ctr_c images import "$PAUSE_IMAGE_ARCHIVE" >/dev/null || die "importing $PAUSE_IMAGE_ARCHIVE failed"
    log "imported $PAUSE_IMAGE"
  fi
}

# Whether containerd logged, after its first `$1` log lines, the CRI's last start-up step (it
# serves CRI calls right after: containerd 1.6's criService.Run).
cri_started() {
  tail -n "+$(($1 + 1))" "$LOG_DIR/containerd.log" | grep -q 'msg="Start streaming server"'
}

# The bridge exists before the kubelet so the API relay and CoreDNS can bind its address.
setup_network() {
  ip link add "$NODE_BRIDGE" type bridge
  ip addr add "$NODE_GATEWAY/${NODE_CIDR#*/}" dev "$NODE_BRIDGE"
  ip link set "$NODE_BRIDGE" up
  # ipMasq false: pods get no route off the machine (nothing to reach there). IPAM state lives in
  # the run dir instead of /var/lib/cni.
  cat >"$NODE_DIR/cni/net.d/10-stackwright.conflist" <<EOF
{
  "cniVersion": "1.0.0",
  "name": "stackwright",
  "plugins": [
    {
      "type": "bridge",
      "bridge": "$NODE_BRIDGE",
      "isGateway": true,
      "ipMasq": false,
      "hairpinMode": true,
      "ipam": {
        "type": "host-local",
        "dataDir": "$NODE_DIR/cni/ipam",
        "ranges": [[{ "subnet": "$NODE_CIDR", "gateway": "$NODE_GATEWAY" }]],
        "routes": [{ "dst": "0.0.0.0/0" }]
      }
    },
    { "type": "loopback" }
  ]
}
EOF
}

# kube-apiserver listens on 127.0.0.1 only; pods reach it on the bridge address through this relay.
start_api_relay() {
  start_node_component api-relay socat "TCP-LISTEN:$API_PORT,bind=$NODE_GATEWAY,fork,reuseaddr" \
    "TCP:127.0.0.1:$API_PORT"
  wait_node_healthy api-relay 30
}

start_coredns() {
  cat >"$NODE_DIR/Corefile" <<EOF
cluster.local:53 in-addr.arpa:53 {
  bind $NODE_GATEWAY
  errors
  health 127.0.0.1:$COREDNS_HEALTH_PORT
  ready 127.0.0.1:$COREDNS_READY_PORT
  kubernetes cluster.local in-addr.arpa {
    kubeconfig $NODE_DIR/coredns.kubeconfig
    pods insecure
    ttl 5
  }
}
.:53 {
  bind $NODE_GATEWAY
  errors
  forward . /etc/resolv.conf
  cache 30
}
EOF
  start_node_component coredns "$BIN_DIR/coredns" -conf "$NODE_DIR/Corefile"
}

start_kubelet() {
  mkdir -p "$NODE_DIR/kubelet" "$NODE_DIR/pod-logs" "$NODE_DIR/volume-plugins"
  cat >"$NODE_DIR/kubelet.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
containerRuntimeEndpoint: unix://$CONTAINERD_SOCKET
# cgroup v1 hybrid without systemd; kubelet >= 1.35 refuses cgroup v1 unless told otherwise.
cgroupDriver: cgroupfs
failCgroupV1: false
failSwapOn: false
address: $NODE_GATEWAY
port: $KUBELET_PORT
healthzBindAddress: 127.0.0.1
healthzPort: $KUBELET_HEALTHZ_PORT
readOnlyPort: 0
authentication:
  anonymous: { enabled: false }
  webhook: { enabled: true }
  x509: { clientCAFile: $PKI_DIR/ca.crt }
authorization: { mode: Webhook }
clusterDNS: [$NODE_GATEWAY]
clusterDomain: cluster.local
podLogsDir: $NODE_DIR/pod-logs
volumePluginDir: $NODE_DIR/volume-plugins
# A shared, busy build machine: evict only when really short, and never garbage-collect the
# locally imported images (nothing could pull them back).
evictionHard: { memory.available: 200Mi, nodefs.available: 2%, imagefs.available: 2%, nodefs.inodesFree: 1% }
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
serializeImagePulls: false
EOF
  start_node_component kubelet "$BIN_DIR/kubelet" --config "$NODE_DIR/kubelet.yaml" \
    --kubeconfig "$NODE_DIR/kubelet.kubeconfig" --hostname-override "$NODE_NAME" \
    --node-ip "$NODE_GATEWAY" --root-dir "$NODE_DIR/kubelet" --cert-dir "$NODE_DIR/kubelet/pki" --v=1
  wait_node_healthy kubelet 120
}

# The conntrack zeros and the node-port address on the bridge keep kube-proxy off host sysctls
# (nf_conntrack_max, tcp timeouts, route_localnet).
start_kube_proxy() {
  start_node_component kube-proxy "$BIN_DIR/kube-proxy" --kubeconfig "$NODE_DIR/kube-proxy.kubeconfig" \
    --hostname-override "$NODE_NAME" --proxy-mode iptables --cluster-cidr "$NODE_CIDR" \
    --conntrack-max-per-core 0 --conntrack-tcp-timeout-established 0 --conntrack-tcp-timeout-close-wait 0 \
    --nodeport-addresses "$NODE_GATEWAY/32" \
    --metrics-bind-address "127.0.0.1:$PROXY_METRICS_PORT" --healthz-bind-address "127.0.0.1:$PROXY_HEALTHZ_PORT"
  wait_node_healthy kube-proxy 60
}

# The provisioner's ConfigMap: where volumes go (inside the run dir, so down removes them) and the
# helper pod that makes and removes each volume's directory. World-writable like a fresh disk;
# the kubelet then hands it to the pod's fsGroup.
apply_local_path_config() {
  mkdir -p "$NODE_DIR/volumes"
  kubectl_c -n local-path-storage create configmap local-path-config --dry-run=client -o yaml \
    --from-literal=config.json="{\"nodePathMap\": [{\"node\": \"DEFAULT_PATH_FOR_NON_LISTED_NODES\", \"paths\": [\"$NODE_DIR/volumes\"]}]}" \
    --from-literal=setup=$'#!/bin/sh\nset -eu\nmkdir -m 0777 -p "$VOL_DIR"\n' \
    --from-literal=teardown=$'#!/bin/sh\nset -eu\nrm -rf "$VOL_DIR"\n' \
    --from-literal=helperPod.yaml="$(printf '%s\n' 'apiVersion: v1' 'kind: Pod' 'metadata: {name: helper-pod}' \
      'spec:' '  containers:' "  - {name: helper-pod, image: '$NODE_HELPER_IMAGE', imagePullPolicy: IfNotPresent," \
      '     securityContext: {runAsUser: 0, runAsGroup: 0}}')" |
    kubectl_c apply -f - >/dev/null
}

start_local_path_provisioner() {
  apply_local_path_config
  start_node_component local-path-provisioner "$BIN_DIR/local-path-provisioner" start \
    --kubeconfig "$NODE_DIR/local-path-provisioner.kubeconfig" --namespace local-path-storage \
    --service-account-name local-path-provisioner --configmap-name local-path-config \
    --provisioner-name stackwright.io/local-path --helper-image "$NODE_HELPER_IMAGE"
  wait_node_healthy local-path-provisioner 10
}

# The control profile's labels (scripts/cluster/nodes/10-control.yaml), so everything a cloud's
# control plane schedules lands here; the kwok nodes then run without that profile (up.sh).
label_node() {
  local labels
  mapfile -t labels < <(sed -nE 's/^ +([a-z0-9.-]+\.yaook\.cloud\/[a-z0-9-]+): .*/\1=true/p' \
    "$CLUSTER_SCRIPTS_DIR/nodes/10-control.yaml" | sort -u)
  ((${#labels[@]} > 0)) || die "no Yaook labels found in scripts/cluster/nodes/10-control.yaml"
  kubectl_c label node "$NODE_NAME" --overwrite "${labels[@]}" "$NODE_LABEL_SELECTOR" \
    stackwright.io/e2e-profile=control >/dev/null
}

node_ready() {
  [[ "$(kubectl_c get node "$NODE_NAME" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}' 2>/dev/null)" == True ]]
}

real_node_up() {
  local t0
  t0="$(now)"
  mkdir -p "$NODE_DIR"
  # RBAC first: CoreDNS and the provisioner start with their own identities.
  kubectl_c apply -f "$CLUSTER_SCRIPTS_DIR/manifests-real/" >/dev/null
  save_host_state
  share_netns_dir
  start_containerd
  setup_network
  start_api_relay
  start_coredns
  start_kubelet
  wait_for 120 "node $NODE_NAME Ready" node_ready || die "node $NODE_NAME not Ready; see $LOG_DIR/kubelet.log"
  log "node $NODE_NAME Ready (+$(elapsed "$t0")s)"
  label_node
  start_kube_proxy
  wait_node_healthy coredns 60
  # One default class: claims of the real node's pods must get real directories.
  kubectl_c annotate storageclass kwok-volume --overwrite storageclass.kubernetes.io/is-default-class=false >/dev/null
  start_local_path_provisioner
  log "real node $NODE_NAME up in $(elapsed "$t0")s (containerd: $CONTAINERD_SOCKET)"
}

# --- teardown ------------------------------------------------------------------------
stop_node_component() {
  local pid
  pid="$(node_component_pid "$1")" || return 0
  stop_pid "$1" "$pid"
}

# Kills every container and sandbox left in containerd (the kubelet is already stopped, so
# nothing restarts them) and deletes them with their snapshots.
remove_containers() {
  node_component_healthy containerd || return 0
  local ids id
  mapfile -t ids < <(ctr_c tasks ls -q 2>/dev/null)
  for id in "${ids[@]}"; do
    # The task's own process first, by pid: `delete --force` kills what is in the task's cgroups and
    # waits for the task to end, so a process that left them (libvirtd, LIBVIRTD_START in
    # constructs/openstack/nova-compute.ts) kept it waiting for ever.
    ctr_c tasks kill --signal SIGKILL "$id" >/dev/null 2>&1 || true
    ctr_c tasks delete --force "$id" >/dev/null 2>&1 || true
  done
  mapfile -t ids < <(ctr_c containers ls -q 2>/dev/null)
  for id in "${ids[@]}"; do ctr_c containers delete "$id" >/dev/null 2>&1 || true; done
  log "removed ${#ids[@]} containers"
}

# Shims outlive containerd by design; any still serving this node's socket is ours to stop.
stop_shims() {
  local p cmd
  for p in /proc/[0-9]*; do
    cmd="$({ tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null)" || continue
    [[ "$cmd" == *containerd-shim* && "$cmd" == *"-address $CONTAINERD_SOCKET"* ]] && stop_pid containerd-shim "${p#/proc/}"
  done
  return 0
}

unmount_node() {
  local targets t
  # Deepest first, so nested mounts go before their parents.
  mapfile -t targets < <(findmnt -rn -o TARGET | grep -E "^($NODE_DIR/|$NODE_CACHE/|/run/netns/cni-)" | sort -r)
  for t in "${targets[@]}"; do
    umount "$t" 2>/dev/null || umount -l "$t" || log "could not unmount $t"
  done
  rm -f /run/netns/cni-*
  ((${#targets[@]} == 0)) || log "unmounted ${#targets[@]} mounts"
}

# kube-proxy --cleanup removes its own rules; the kubelet's chains (KUBE-FIREWALL, canaries) and
# anything CNI plugins left are removed here: first every rule jumping to them, then the chains.
remove_iptables_chains() {
  local cmd table rule chain
  for cmd in iptables ip6tables; do
    for table in filter nat mangle raw; do
      "$cmd" -t "$table" -S >/dev/null 2>&1 || continue
      while read -r rule; do
        # eval: the spec quotes its comments ("kubernetes service portals") as a shell would.
        eval "$cmd -t $table ${rule/#-A/-D}" 2>/dev/null || true
      done < <("$cmd" -t "$table" -S | grep -E '^-A ' | grep -E -- '-j (KUBE|CNI)-' | grep -vE '^-A (KUBE|CNI)-')
      for chain in $("$cmd" -t "$table" -S | sed -nE 's/^-N ((KUBE|CNI)-[^ ]+)$/\1/p'); do
        "$cmd" -t "$table" -F "$chain" 2>/dev/null || true
      done
      for chain in $("$cmd" -t "$table" -S | sed -nE 's/^-N ((KUBE|CNI)-[^ ]+)$/\1/p'); do
        "$cmd" -t "$table" -X "$chain" 2>/dev/null || log "could not delete $cmd -t $table chain $chain"
      done
    done
  done
}

remove_kubepods_cgroups() {
  local d
  for d in /sys/fs/cgroup/*/kubepods /sys/fs/cgroup/kubepods; do
    [[ -d "$d" ]] || continue
    find "$d" -depth -type d -exec rmdir {} + 2>/dev/null || log "cgroup $d not empty, left in place"
  done
}

remove_container_log_links() {
  local l
  for l in /var/log/containers/*; do
    [[ -L "$l" && "$(readlink "$l")" == "$NODE_DIR/"* ]] && rm -f "$l"
  done
  return 0
}

real_node_down() {
  if ! real_node_configured; then
    [[ -s "$NODE_HOST_STATE" ]] || return 0
    # The saved host state is the machine's, not this run dir's: with the node's bridge up, a real
    # node of another run dir is running (one per machine, see up), and restoring the host here
    # would delete its bridge, iptables chains, kubepods cgroups and instances under it.
    if ip link show "$NODE_BRIDGE" >/dev/null 2>&1; then
      log "bridge $NODE_BRIDGE is up but this run dir has no real node: another run dir's real node runs; host left alone"
      return 0
    fi
  fi
  local i
  for ((i = ${#NODE_COMPONENTS[@]} - 1; i >= 1; i--)); do
    stop_node_component "${NODE_COMPONENTS[i]}"
  done
  if [[ -x "$BIN_DIR/kube-proxy" ]]; then
    "$BIN_DIR/kube-proxy" --cleanup >>"$LOG_DIR/kube-proxy-cleanup.log" 2>&1 ||
      log "kube-proxy --cleanup failed, see $LOG_DIR/kube-proxy-cleanup.log (its chains are removed below)"
  fi
  remove_containers
  stop_node_component containerd
  stop_shims
  remove_hypervisor_leftovers
  unmount_node
  remove_iptables_chains
  ip link delete "$NODE_BRIDGE" 2>/dev/null || true
  remove_kubepods_cgroups
  remove_container_log_links
  restore_host_state
  log "real node $NODE_NAME stopped and host restored"
}

real_node_status() {
  local c pid health
  for c in "${NODE_COMPONENTS[@]}"; do
    if pid="$(node_component_pid "$c")"; then
      if node_component_healthy "$c"; then health=ok; else health=FAIL; fi
      printf '%-25s %-8s %-9s %-8s %s\n' "$c" "$pid" running "$health" "$(rss_mib "$pid")"
    else
      printf '%-25s %-8s %-9s %-8s %s\n' "$c" - stopped - -
    fi
  done
}
