# Shared by galera.sh and rabbitmq.sh: members of an infrastructure StatefulSet run from the
# manifests the constructs synthesise (render.ts), each in its own network namespace on a private
# bridge, with /etc/hosts naming the members as the cluster's DNS would, as uid 42424 on a read-only
# root. Needs root, iproute2, util-linux and the servers' Debian packages. Everything started is
# stopped and removed on exit (by namespace, so SST helpers and epmd go too).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# Not under /tmp: the members mount their own /tmp over it.
work=$(mktemp -d "${STACKWRIGHT_INFRA_WORK:-/var/tmp}/stackwright-infra-local.XXXXXX")
chmod 755 "$work"
tag=swt$$ # prefix of every namespace and interface this run creates
switch=$tag-sw
subnet=10.213.0
namespaces=()
created_dirs=()
supervisors=()

log() { printf '[%s %5ss] %s\n' "$(basename "$0" .sh)" "$SECONDS" "$*"; }
fail() {
  log "FAIL: $*"
  exit 1
}

cleanup() {
  local status=$? ns pid
  {
    for pid in "${supervisors[@]}"; do kill -9 "$pid" || true; done
    for ns in "${namespaces[@]}"; do ip netns pids "$ns" | xargs -r kill -9 || true; done
    wait
  } 2>/dev/null
  for ns in "${namespaces[@]}" "$switch"; do
    ip netns del "$ns" 2>/dev/null || true
    rm -rf "/etc/netns/$ns"
  done
  for dir in "${created_dirs[@]}"; do rmdir "$dir" 2>/dev/null || true; done
  if [ "$status" -ne 0 ] && [ -n "${STACKWRIGHT_INFRA_KEEP:-}" ]; then
    log "kept $work"
  else
    rm -rf "$work"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[ "$(id -u)" = 0 ] || fail "needs root (network namespaces and bind mounts)"

# The rendered kits of the given StatefulSets, from the constructs as they are in this checkout.
render() {
  log "rendering $* from the constructs"
  (cd "$repo" && npx tsc --outDir "$work/js" --rootDir "$repo" --module commonjs --target ES2022 \
    --moduleResolution node --esModuleInterop --skipLibCheck --resolveJsonModule --strict \
    test/infra-local/render.ts)
  NODE_PATH=$repo/node_modules node "$work/js/test/infra-local/render.js" "$work/kit" "$@"
}

ip netns add "$switch"
ip -n "$switch" link add br0 type bridge
ip -n "$switch" link set br0 up

# member_ns STATEFULSET ORDINAL: the network namespace of a member (created by add_members).
member_ns() { echo "$tag-$1-$2"; }

# add_members STATEFULSET PEERS_SERVICE REPLICAS: one namespace per member on the bridge, and the
# hosts file each would see: its own FQDN and short name, and every member as `<pod>.<peers>`.
add_members() {
  local sts=$1 peers=$2 replicas=$3 i ns index hosts
  hosts="127.0.0.1 localhost"$'\n'
  for ((i = 0; i < replicas; i++)); do
    index=$((${#namespaces[@]} + i + 10))
    hosts+="$subnet.$index $sts-$i.$peers"$'\n'
  done
  for ((i = 0; i < replicas; i++)); do
    ns=$(member_ns "$sts" "$i")
    index=$((${#namespaces[@]} + 10))
    ip netns add "$ns"
    namespaces+=("$ns")
    ip link add "$tag-v$index" netns "$switch" type veth peer name eth0 netns "$ns"
    ip -n "$switch" link set "$tag-v$index" master br0 up
    ip -n "$ns" addr add "$subnet.$index/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$ns" link set lo up
    mkdir -p "/etc/netns/$ns"
    printf '%s %s.%s.infra-local.svc.cluster.local %s\n%s' "$subnet.$index" "$sts-$i" "$peers" "$sts-$i" \
      "$hosts" >"/etc/netns/$ns/hosts"
  done
}

# start_member STATEFULSET ORDINAL: starts (or restarts) a member as a new pod: fresh emptyDirs and
# the member's persistent data directory. Its container runs under restartPolicy Always, as the
# kubelet runs it (see supervise); the container's PID is in $work/pid/<sts>-<i>.
start_member() {
  local sts=$1 i=$2 kit=$work/kit/$1/$2 state=$work/state/$1-$2 target kind source
  mkdir -p "$state/data" "$work/pid" "$work/log" "$work/stop"
  rm -rf "$state/empty" "$work/stop/$sts-$i" "$work/pid/$sts-$i"
  while IFS=$'\t' read -r target kind source; do
    if [ ! -d "$target" ]; then
      mkdir -p "$target"
      created_dirs+=("$target")
    fi
    if [ "$kind" = empty ]; then mkdir -p "$state/empty/$source"; fi
    if [ "$kind" = secret ]; then
      chown -R 0:42424 "$source" && chmod 0750 "$source" && chmod 0440 "$source"/*
    fi
  done <"$kit/mounts"
  # fsGroup: the volumes belong to the pod's group (here, user too: no fsGroup on a plain directory).
  chown -R 42424:42424 "$state"
  supervise "$sts" "$i" &
  supervisors+=("$!")
  echo $! >"$work/pid/$sts-$i.supervisor"
  until [ -s "$work/pid/$sts-$i" ]; do sleep 0.1; done
  log "started $sts-$i (pid $(member_pid "$sts" "$i"))"
}

# supervise STATEFULSET ORDINAL: the kubelet's restartPolicy Always for one member's container. A
# container that exits on its own starts again in the same pod (same emptyDirs, same network), after
# the kubelet's back-off (10 s, doubling, at most 5 min); kill_member marks a stop as intended first.
# Members may crash on the way up and still converge (RabbitMQ 3.10 aborts on a feature-flag sync
# race when all members boot at once); a real cluster restarts them, so the test must too.
supervise() {
  local sts=$1 i=$2 backoff=10 pid status
  while :; do
    ip netns exec "$(member_ns "$sts" "$i")" unshare --mount --uts --propagation private \
      bash "$here/pod-run.sh" start "$work/kit/$sts/$i" argv "$work/state/$sts-$i" "$sts-$i" \
      >>"$work/log/$sts-$i.log" 2>&1 &
    pid=$!
    echo "$pid" >"$work/pid/$sts-$i.next" && mv "$work/pid/$sts-$i.next" "$work/pid/$sts-$i"
    status=0
    wait "$pid" 2>/dev/null || status=$?
    [ -e "$work/stop/$sts-$i" ] && return 0
    # The runtime kills what the container's main process left behind (here: the member's netns).
    ip netns pids "$(member_ns "$sts" "$i")" | xargs -r kill -9 2>/dev/null || true
    log "$sts-$i exited on its own (status $status): the kubelet restarts it in ${backoff}s"
    sleep "$backoff"
    [ -e "$work/stop/$sts-$i" ] && return 0
    backoff=$((backoff * 2 > 300 ? 300 : backoff * 2))
  done
}

member_pid() { cat "$work/pid/$1-$2"; }

# probe STATEFULSET ORDINAL startup|readiness|liveness: the pod's probe, in the member's namespaces.
probe() {
  local pid
  pid=$(member_pid "$1" "$2")
  timeout 30 nsenter --target "$pid" --mount --uts --net \
    bash -s exec "$work/kit/$1/$2" "$3" <"$here/pod-run.sh" >/dev/null 2>&1
}

# Inside a member's mount namespace the checkout may be hidden (a clone under /tmp is, behind the
# pod's /tmp emptyDir), so probe() and in_member() hand pod-run.sh to bash on stdin, never by path.

# in_member STATEFULSET ORDINAL COMMAND...: a command as the pod user in the member's namespaces.
in_member() {
  local pid kit=$work/kit/$1/$2
  pid=$(member_pid "$1" "$2")
  shift 2
  printf '%s\0' "$@" >"$kit/adhoc"
  timeout 60 nsenter --target "$pid" --mount --uts --net bash -s exec "$kit" adhoc <"$here/pod-run.sh"
}

# wait_for SECONDS DESCRIPTION COMMAND...: polls COMMAND every 2s; fails with the members' logs.
wait_for() {
  local deadline=$((SECONDS + $1)) what=$2
  shift 2
  until "$@"; do
    if [ "$SECONDS" -ge "$deadline" ]; then
      tail -n 30 "$work"/log/*.log >&2 || true
      fail "timed out waiting for $what"
    fi
    sleep 2
  done
  log "ok: $what"
}

# kill_member STATEFULSET ORDINAL SIGNAL: stops a member as a node crash (KILL) or the kubelet (TERM) would.
kill_member() {
  local pid supervisor
  pid=$(member_pid "$1" "$2")
  supervisor=$(cat "$work/pid/$1-$2.supervisor")
  touch "$work/stop/$1-$2"
  kill "-$3" "$pid" 2>/dev/null || true
  wait "$supervisor" 2>/dev/null || true
  ip netns pids "$(member_ns "$1" "$2")" | xargs -r kill -9 2>/dev/null || true
  log "stopped $1-$2 with SIG$3"
}

# crash_container STATEFULSET ORDINAL: the container's main process dies (SIGKILL) while the pod
# stays: the kubelet (supervise) restarts it in the same pod. Returns once the new one runs.
crash_container() {
  local pid
  pid=$(member_pid "$1" "$2")
  kill -KILL "$pid"
  until [ "$(member_pid "$1" "$2")" != "$pid" ]; do sleep 0.5; done
  log "$1-$2's container restarted in the same pod (pid $(member_pid "$1" "$2"))"
}
