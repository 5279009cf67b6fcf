# shellcheck shell=bash
# What libvirt, QEMU, Open vSwitch and the OVN metadata agent leave on the real node's host after
# their pods are gone, and its removal. Sourced by real-node.sh (and by the test in
# scripts/cluster/tests/), never executed. Everything is matched by exact name or by the prefix
# the daemons use, nothing else on the host is touched, and each step is idempotent:
#
#   processes  QEMU started by libvirtd outlives its pod (host PID namespace, and libvirtd's own
#              cgroups outside the pod's: LIBVIRTD_START in constructs/openstack/nova-compute.ts):
#              every process in a cgroup under `machine/` (libvirt's cgroupfs partition) or
#              `libvirtd/` is stopped by pid.
#   cgroups    /sys/fs/cgroup/<controller>/{machine,libvirtd} and /sys/fs/cgroup/{machine,libvirtd}:
#              removed (empty).
#   links      instance taps Nova names `tap<first 11 characters of the port id>` (tap + 8 hex +
#              `-` + 2 hex), and Open vSwitch's own devices br-int, ovs-netdev, ovs-system,
#              genev_sys_6081: deleted.
#   netns      the metadata agent's `ovnmeta-<network id>` namespaces: deleted.
#   state      the host directories the agents' hostPath volumes keep across pods (Open vSwitch's
#              database and sockets, OVN's sockets, the metadata agent's, Nova's instances, libvirt's
#              state and domain definitions): removed, so that the next node starts with an empty
#              Open vSwitch database and no stale domains; one a Debian package on the host owns (a
#              host's own Open vSwitch or libvirt) is kept and named.
#
# Variables: HYPERVISOR_CGROUP_ROOT (default /sys/fs/cgroup), HYPERVISOR_NETNS_DIR (/run/netns),
# HYPERVISOR_STATE_ROOT (/, where the state directories are looked for).

HYPERVISOR_CGROUP_ROOT="${HYPERVISOR_CGROUP_ROOT:-/sys/fs/cgroup}"
HYPERVISOR_NETNS_DIR="${HYPERVISOR_NETNS_DIR:-/run/netns}"
HYPERVISOR_LINK_NAMES=(br-int ovs-netdev ovs-system genev_sys_6081)
HYPERVISOR_TAP_PATTERN='^tap[0-9a-f]{8}-[0-9a-f]{2}$'
HYPERVISOR_STATE_ROOT="${HYPERVISOR_STATE_ROOT:-/}"
# The hostPath directories of the OVN and metadata agents and of nova-compute/libvirt
# (constructs/openstack/neutron-ovn-agent.ts, neutron-ovn-metadata-agent.ts, nova-compute.ts),
# relative to the root. /run/netns is the CNI's too: its
# `ovnmeta-*` entries go above, the directory stays.
HYPERVISOR_STATE_DIRS=(etc/openvswitch var/lib/openvswitch run/openvswitch run/ovn var/lib/neutron
  var/lib/nova var/lib/libvirt run/libvirt etc/libvirt/qemu)

# machine_cgroups: libvirt's partitions and libvirtd's own cgroups, one per controller (v1) and the
# unified one.
machine_cgroups() {
  local d
  for d in "$HYPERVISOR_CGROUP_ROOT"/*/{machine,libvirtd} "$HYPERVISOR_CGROUP_ROOT"/{machine,libvirtd}; do
    [[ -d "$d" ]] && echo "$d"
  done
  return 0
}

# machine_pids: the processes in any of them (QEMU and its helpers), once each. A running guest's
# vCPU and emulator cgroups are threaded in the unified hierarchy: reading their cgroup.procs fails
# (EOPNOTSUPP) while the domain's own lists the process, so a failed read is no failure here.
machine_pids() {
  local d
  while read -r d; do
    find "$d" -name cgroup.procs -exec cat {} + 2>/dev/null || true
  done < <(machine_cgroups) | sort -un
}

stop_machine_processes() {
  local pids i
  pids="$(machine_pids)"
  [[ -z "$pids" ]] && return 0
  # shellcheck disable=SC2086 # one pid per word
  kill $pids 2>/dev/null || true
  for ((i = 0; i < 20; i++)); do
    [[ -z "$(machine_pids)" ]] && return 0
    sleep 0.5
  done
  # shellcheck disable=SC2046 # one pid per word
  kill -KILL $(machine_pids) 2>/dev/null || true
}

remove_machine_cgroups() {
  local d
  while read -r d; do
    find "$d" -depth -type d -exec rmdir {} + 2>/dev/null || echo "cgroup $d not empty, left in place" >&2
  done < <(machine_cgroups)
}

# hypervisor_links: the names of the links above present in this network namespace.
hypervisor_links() {
  local name
  while read -r name; do
    name="${name%%@*}"
    if [[ "$name" =~ $HYPERVISOR_TAP_PATTERN || " ${HYPERVISOR_LINK_NAMES[*]} " == *" $name "* ]]; then
      echo "$name"
    fi
  done < <(ip -o link show | awk -F': ' '{print $2}')
}

remove_hypervisor_links() {
  local name
  while read -r name; do
    ip link delete "$name" 2>/dev/null || echo "could not delete link $name" >&2
  done < <(hypervisor_links)
}

remove_ovnmeta_namespaces() {
  local ns
  for ns in "$HYPERVISOR_NETNS_DIR"/ovnmeta-*; do
    [[ -e "$ns" ]] || continue
    umount "$ns" 2>/dev/null || umount -l "$ns" 2>/dev/null || true
    rm -f "$ns" || echo "could not remove namespace $ns" >&2
  done
}

remove_agent_state() {
  local dir path
  for dir in "${HYPERVISOR_STATE_DIRS[@]}"; do
    path="${HYPERVISOR_STATE_ROOT%/}/$dir"
    [[ -e "$path" ]] || continue
    if dpkg-query -S "/$dir" >/dev/null 2>&1; then
      echo "kept $path: a Debian package on this host owns /$dir" >&2
      continue
    fi
    rm -rf --one-file-system "$path" || echo "could not remove $path" >&2
  done
}

remove_hypervisor_leftovers() {
  stop_machine_processes
  remove_machine_cgroups
  remove_hypervisor_links
  remove_ovnmeta_namespaces
  remove_agent_state
}
