#!/usr/bin/env bash
# Test of scripts/cluster/hypervisor-leftovers.sh on things it creates itself, in private network
# and mount namespaces (the host's links, namespaces and cgroups are never seen): a Nova-named tap,
# br-int, an `ovnmeta-test` namespace, a fake cgroup tree with a process "in" libvirt's partition and one in libvirtd's own cgroup
# and the agents' state directories under a fake root; and decoys that must survive (a tap not
# named like Nova's, a `metadata-test` namespace, `machines` and `kubepods` cgroups, a sibling of
# the state directories, and the state directory a host package owns when one does). Runs the removal twice (idempotent). Needs root.
#
#   bash scripts/cluster/tests/hypervisor-leftovers.sh
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ "${1:-}" != --inside ]]; then
  ((EUID == 0)) || { echo "needs root (network and mount namespaces)" >&2; exit 1; }
  exec unshare --net --mount --propagation private --fork bash "$0" --inside
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mount -t tmpfs tmpfs /run/netns 2>/dev/null || { mkdir -p /run/netns && mount -t tmpfs tmpfs /run/netns; }
export HYPERVISOR_CGROUP_ROOT="$work/cgroup"
export HYPERVISOR_STATE_ROOT="$work/root"
# shellcheck source=scripts/cluster/hypervisor-leftovers.sh
source "$HERE/../hypervisor-leftovers.sh"

fail() { echo "FAIL: $*" >&2; exit 1; }
has_link() { ip link show "$1" >/dev/null 2>&1; }

# GIVEN what libvirt, OVS and the metadata agent leave, and decoys
ip tuntap add dev tapdeadbeef-01 mode tap
ip tuntap add dev tapkeep mode tap
ip tuntap add dev br-int mode tap # what the userspace datapath makes of it
ip netns add ovnmeta-test
ip netns add metadata-test
mkdir -p "$work/cgroup/cpu/machine/qemu-1-vm.libvirt-qemu" "$work/cgroup/machine" \
  "$work/cgroup/cpu/machines" "$work/cgroup/cpu/kubepods" "$work/cgroup/pids/libvirtd"
for dir in etc/openvswitch var/lib/nova/instances/a-server run/libvirt/qemu var/lib/keep run/netns-keep; do
  mkdir -p "$HYPERVISOR_STATE_ROOT/$dir"
done
touch "$HYPERVISOR_STATE_ROOT/etc/openvswitch/conf.db"
# a state directory a Debian package owns on this host (when one does: it must be kept)
owned=""
for dir in "${HYPERVISOR_STATE_DIRS[@]}"; do
  if dpkg-query -S "/$dir" >/dev/null 2>&1; then owned="$dir" && mkdir -p "$HYPERVISOR_STATE_ROOT/$dir"; fi
done
sleep 300 &
qemu=$!
echo "$qemu" >"$work/cgroup/cpu/machine/qemu-1-vm.libvirt-qemu/cgroup.procs"
# a helper QEMU left only in libvirtd's own cgroup (a controller libvirt does not manage)
sleep 300 &
helper=$!
echo "$helper" >"$work/cgroup/pids/libvirtd/cgroup.procs"
# a running guest's threaded vCPU cgroup (unified hierarchy): its cgroup.procs cannot be read
# (EOPNOTSUPP); a directory in its place cannot be read either
mkdir -p "$work/cgroup/machine/qemu-1-vm.libvirt-qemu/vcpu0/cgroup.procs"

# WHEN the processes of the partition are stopped
stop_machine_processes
# THEN the process is gone (reaped here: it is this shell's child)
wait "$qemu" "$helper" 2>/dev/null || true
kill -0 "$qemu" 2>/dev/null && fail "process $qemu in machine/ still running"
kill -0 "$helper" 2>/dev/null && fail "process $helper in libvirtd/ still running"
# cgroupfs drops cgroup.procs with the cgroup; the fake tree must drop it by hand
rm "$work/cgroup/cpu/machine/qemu-1-vm.libvirt-qemu/cgroup.procs" "$work/cgroup/pids/libvirtd/cgroup.procs"
rmdir "$work/cgroup/machine/qemu-1-vm.libvirt-qemu/vcpu0/cgroup.procs"

# WHEN everything is removed, twice
remove_hypervisor_leftovers
remove_hypervisor_leftovers

# THEN the leftovers are gone and the decoys are not
has_link tapdeadbeef-01 && fail "tap tapdeadbeef-01 left"
has_link br-int && fail "br-int left"
has_link tapkeep || fail "tapkeep removed"
[[ -e /run/netns/ovnmeta-test ]] && fail "netns ovnmeta-test left"
[[ -e /run/netns/metadata-test ]] || fail "netns metadata-test removed"
[[ -e "$work/cgroup/cpu/machine" || -e "$work/cgroup/machine" ]] && fail "machine cgroups left"
[[ -e "$work/cgroup/pids/libvirtd" ]] && fail "libvirtd cgroups left"
[[ -d "$work/cgroup/cpu/machines" && -d "$work/cgroup/cpu/kubepods" ]] || fail "other cgroups removed"
for dir in etc/openvswitch var/lib/nova run/libvirt; do
  [[ -e "$HYPERVISOR_STATE_ROOT/$dir" ]] && fail "state directory /$dir left"
done
[[ -d "$HYPERVISOR_STATE_ROOT/var/lib/keep" && -d "$HYPERVISOR_STATE_ROOT/run/netns-keep" ]] || fail "other directories removed"
[[ -z "$owned" || -d "$HYPERVISOR_STATE_ROOT/$owned" ]] || fail "/$owned, owned by a package, removed"
ip netns delete metadata-test
echo "hypervisor-leftovers: ok"
