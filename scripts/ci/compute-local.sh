#!/usr/bin/env bash
# Rehearsal of a server boot without Kubernetes (issue 22): Open vSwitch on the userspace datapath
# with userspace TSO, OVN (NB/SB ovsdb-servers, northd, ovn-controller creating br-int as netdev),
# virtlogd and libvirtd with the qemu.conf the Nova construct renders, all from the built images'
# layers (ovn over the guest layer, which sits on libvirt), in private mount, PID and network
# namespaces. A logical switch with OVN's native DHCP, a port bound by iface-id, and the test guest
# as a libvirt domain of type qemu (TCG) with the interface XML Nova writes for ML2/OVN; passes when
# the guest's console shows the address OVN gave it. Everything ends with the namespaces; the
# cgroups libvirt creates (under /sys/fs/cgroup/*/machine) are removed by the same code as down.sh.
# Needs root and a finished scripts/images/build.sh.
#
#   compute-local.sh     (STACKWRIGHT_GUEST_TIMEOUT: seconds to wait for the address, default 240)
set -euo pipefail
shopt -s inherit_errexit
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/images/lib.sh
source "$HERE/../images/lib.sh"
# shellcheck source=scripts/cluster/hypervisor-leftovers.sh
source "$HERE/../cluster/hypervisor-leftovers.sh"

if [[ "${1:-}" != --inside ]]; then
  ((EUID == 0)) || { echo "[compute-local] needs root" >&2; exit 1; }
  rc=0
  unshare --mount --propagation private --pid --fork --mount-proc --net bash "$0" --inside || rc=$?
  # QEMU died with the PID namespace; libvirt's cgroups stay on the host's hierarchy.
  remove_machine_cgroups
  exit "$rc"
fi

TIMEOUT="${STACKWRIGHT_GUEST_TIMEOUT:-240}"
root="$IMAGES_CACHE/check/compute-local"
scratch="$(mktemp -d)"
# The guest chain (guest, libvirt, openvswitch, minbase) with OVN's layer on top, writable on tmpfs.
ovn_layer="$(imagelib rootfs ovn)"
lowers="${ovn_layer%%$'\n'*}:$(imagelib rootfs guest | paste -sd:)"
mount -t tmpfs tmpfs "$scratch"
mkdir -p "$scratch/upper" "$scratch/work" "$root"
mount -t overlay overlay -o "lowerdir=$lowers,upperdir=$scratch/upper,workdir=$scratch/work" "$root"
mount --rbind /dev "$root/dev"
mount --rbind /sys "$root/sys"
mount -t proc proc "$root/proc"
mount -t tmpfs -o mode=0755 tmpfs "$root/run"
mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"
ip link set lo up

inside() {
  chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root /bin/sh -ec "$1"
}
start=$SECONDS
step() { printf '[compute-local] %3ss %s\n' "$((SECONDS - start))" "$*" >&2; }

step "Open vSwitch, netdev datapath, userspace TSO"
inside '
  mkdir -p /run/openvswitch /run/ovn /var/lib/ovn /var/log/openvswitch /var/log/ovn
  ovsdb-tool create /etc/openvswitch/conf.db /usr/share/openvswitch/vswitch.ovsschema
  ovsdb-server /etc/openvswitch/conf.db --remote=punix:/run/openvswitch/db.sock \
    --pidfile=/run/openvswitch/ovsdb-server.pid --detach --log-file
  ovs-vsctl --no-wait init
  ovs-vsctl --no-wait set open . other_config:userspace-tso-enable=true
  ovs-vswitchd unix:/run/openvswitch/db.sock --pidfile=/run/openvswitch/ovs-vswitchd.pid --detach --log-file'

step "OVN databases, northd, ovn-controller"
inside '
  for db in nb sb; do
    ovsdb-tool create /var/lib/ovn/ovn${db}_db.db /usr/share/ovn/ovn-$db.ovsschema
    ovsdb-server /var/lib/ovn/ovn${db}_db.db --remote=punix:/run/ovn/ovn${db}_db.sock \
      --unixctl=/run/ovn/ovn${db}_db.ctl --pidfile=/run/ovn/ovn${db}_db.pid --detach --log-file=/var/log/ovn/$db.log
  done
  ovn-northd --ovnnb-db=unix:/run/ovn/ovnnb_db.sock --ovnsb-db=unix:/run/ovn/ovnsb_db.sock \
    --pidfile=/run/ovn/ovn-northd.pid --detach --log-file=/var/log/ovn/northd.log
  ovs-vsctl set open . external_ids:system-id=compute-local external_ids:hostname=compute-local \
    external_ids:ovn-remote=unix:/run/ovn/ovnsb_db.sock external_ids:ovn-encap-type=geneve \
    external_ids:ovn-encap-ip=127.0.0.1 external_ids:ovn-bridge-datapath-type=netdev
  ovn-controller unix:/run/openvswitch/db.sock --pidfile=/run/ovn/ovn-controller.pid --detach \
    --log-file=/var/log/ovn/controller.log
  for i in $(seq 30); do ovs-vsctl br-exists br-int && break; sleep 1; done
  test "$(ovs-vsctl get bridge br-int datapath_type)" = netdev'

# As Neutron names it: the port's UUID is the logical port's name and the iface-id; Nova names the
# tap after its first 11 characters.
PORT=deadbeef-1100-4000-8000-000000000011
step "logical switch with OVN DHCP and the guest's port"
inside "PORT=$PORT"'
  nb="ovn-nbctl --db=unix:/run/ovn/ovnnb_db.sock"
  $nb ls-add net1
  $nb lsp-add net1 $PORT
  $nb lsp-set-addresses $PORT "52:54:00:00:00:11 10.0.0.11"
  dhcp=$($nb create DHCP_Options cidr=10.0.0.0/24 \
    options="\"lease_time\"=\"3600\" \"router\"=\"10.0.0.1\" \"server_id\"=\"10.0.0.1\" \"server_mac\"=\"c0:ff:ee:00:00:01\" \"mtu\"=\"1442\"")
  $nb lsp-set-dhcpv4-options $PORT "$dhcp"'

step "virtlogd and libvirtd with the construct's qemu.conf"
# The construct's own text (the compiled SDK: npm run build).
(cd "$IMAGES_REPO_ROOT" && node -e 'process.stdout.write(require("./dist-lib/constructs/openstack/nova-compute").LIBVIRT_QEMU_CONF)') \
  >"$root/etc/libvirt/qemu.conf"
cat "$root/etc/libvirt/qemu.conf" >&2
inside '
  virtlogd -d
  libvirtd -d
  for i in $(seq 60); do virsh -c qemu:///system version >/dev/null 2>&1 && break; sleep 1; done
  virsh -c qemu:///system version'

step "the guest as a qemu (TCG) domain on br-int"
inside "PORT=$PORT"'
  mkdir -p /var/lib/nova/instances/vm1
  cp /opt/guest/guest.qcow2 /var/lib/nova/instances/vm1/disk
  cat >/tmp/vm1.xml <<EOF
<domain type="qemu">
  <name>vm1</name>
  <memory unit="MiB">256</memory>
  <vcpu>1</vcpu>
  <os><type arch="x86_64" machine="pc">hvm</type><boot dev="hd"/></os>
  <cpu mode="custom" match="exact"><model fallback="allow">qemu64</model></cpu>
  <devices>
    <disk type="file" device="disk">
      <driver name="qemu" type="qcow2"/>
      <source file="/var/lib/nova/instances/vm1/disk"/>
      <target dev="vda" bus="virtio"/>
    </disk>
    <interface type="bridge">
      <mac address="52:54:00:00:00:11"/>
      <source bridge="br-int"/>
      <virtualport type="openvswitch"><parameters interfaceid="$PORT"/></virtualport>
      <target dev="tapdeadbeef-11"/>
      <model type="virtio"/>
      <rom enabled="no"/>
      <mtu size="1442"/>
    </interface>
    <serial type="pty"><log file="/var/lib/nova/instances/vm1/console.log" append="off"/></serial>
    <console type="pty"/>
  </devices>
</domain>
EOF
  virsh -c qemu:///system create /tmp/vm1.xml'

step "waiting for the guest's DHCP address on its console (timeout ${TIMEOUT}s)"
console="$root/var/lib/nova/instances/vm1/console.log"
for ((i = 0; i < TIMEOUT; i++)); do
  grep -q '^SW-GUEST ADDRESS' "$console" 2>/dev/null && break
  sleep 1
done
markers="$(tr -d '\r' <"$console" 2>/dev/null | grep '^SW-GUEST' || true)"
echo "$markers" >&2
if ! grep -qx 'SW-GUEST ADDRESS 10.0.0.11' <<<"$markers"; then
  step "FAILED: no address from OVN; logs:"
  tail -n 20 "$root"/var/log/ovn/controller.log "$root"/var/log/openvswitch/*.log "$console" >&2 || true
  inside 'ovs-vsctl show; ovn-sbctl --db=unix:/run/ovn/ovnsb_db.sock show' >&2 || true
  exit 1
fi
inside "ovn-nbctl --db=unix:/run/ovn/ovnnb_db.sock get logical_switch_port $PORT up" | grep -qx true
step "guest got 10.0.0.11 from OVN's DHCP; its port is up"
inside 'virsh -c qemu:///system destroy vm1 >/dev/null'
