#!/usr/bin/env bash
# The test guest built by scripts/images/build.sh (images/guest.toml): where it is, and a boot
# check under QEMU's TCG. The check boots the qcow2 from a virtio disk with the guest layer's own
# qemu-system-x86_64, chrooted in its read-only rootfs, in private mount, PID and network
# namespaces; QEMU's user network stands in for Neutron: DHCP on 169.254.169.0/24 and, at
# 169.254.169.254:80, a one-line metadata service whose meta_data.json carries a server id. It
# passes when the serial console shows the leased address, that id and READY (docs/images.md).
#
#   guest.sh path     print the path of guest.qcow2 (fails if it is not built)
#   guest.sh check    boot it (bounded by STACKWRIGHT_GUEST_TIMEOUT seconds, default 240)
set -euo pipefail
shopt -s inherit_errexit
# shellcheck source=scripts/images/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

GUEST_TIMEOUT="${STACKWRIGHT_GUEST_TIMEOUT:-240}"
SERVER_ID="guest-check-$RANDOM$RANDOM"

guest_path() {
  local tree
  tree="$(imagelib rootfs guest)"
  tree="${tree%%$'\n'*}" # the top layer, where the guest is
  [[ -f "$tree/opt/guest/guest.qcow2" ]] || { echo "[guest] $tree has no opt/guest/guest.qcow2" >&2; return 1; }
  echo "$tree/opt/guest/guest.qcow2"
}

# Inside the namespaces: mount the rootfs read-only, boot, read the console.
check_inside() {
  local root="$IMAGES_CACHE/check/guest" lowers console pid start=$SECONDS
  lowers="$(imagelib rootfs guest | paste -sd:)"
  mkdir -p "$root"
  mount -t overlay overlay -o "ro,lowerdir=$lowers" "$root"
  mount --bind /dev "$root/dev"
  mount -t proc proc "$root/proc"
  mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"
  # snapshot=on keeps the qcow2 untouched; QEMU writes the overlay to /var/tmp whatever TMPDIR says.
  mount -t tmpfs -o mode=1777 tmpfs "$root/var/tmp"
  ip link set lo up
  console="$root/tmp/console.log"
  # guestfwd's command answers one HTTP request per connection (JSON without commas: QEMU options
  # would split on them).
  local metadata="cmd:/bin/sh -c 'read line; printf \"HTTP/1.0 200 OK\\r\\nContent-Type: application/json\\r\\n\\r\\n{\\\"uuid\\\": \\\"$SERVER_ID\\\"}\"'"
  chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
    timeout "$GUEST_TIMEOUT" qemu-system-x86_64 -accel tcg -cpu qemu64 -m 256 -smp 1 \
    -display none -no-reboot -serial file:/tmp/console.log -monitor none -nodefaults \
    -drive file=/opt/guest/guest.qcow2,if=virtio,format=qcow2,snapshot=on \
    -netdev "user,id=n0,net=169.254.169.0/24,guestfwd=tcp:169.254.169.254:80-$metadata" \
    -device virtio-net-pci,netdev=n0,romfile= >"$root/tmp/qemu.log" 2>&1 &
  pid=$!
  until grep -q '^SW-GUEST READY' "$console" 2>/dev/null; do
    kill -0 "$pid" 2>/dev/null || { echo "[guest] QEMU ended before READY" >&2; cat "$root/tmp/qemu.log" "$console" >&2; return 1; }
    sleep 1
  done
  echo "[guest] READY after $((SECONDS - start))s (TCG)" >&2
  kill "$pid" && wait "$pid" || true
  local markers
  markers="$(tr -d '\r' <"$console" | grep '^SW-GUEST')"
  echo "$markers" >&2
  if ! grep -qx 'SW-GUEST ADDRESS 169.254.169.15' <<<"$markers" || ! grep -qx "SW-GUEST SERVER-ID $SERVER_ID" <<<"$markers"; then
    echo "[guest] no address or server id marker; QEMU's output and the console:" >&2
    cat "$root/tmp/qemu.log" "$console" >&2
    return 1
  fi
}

case "${1:-}" in
  path) guest_path ;;
  check)
    ((EUID == 0)) || { echo "[guest] check needs root (overlay mount, chroot)" >&2; exit 1; }
    guest_path >/dev/null
    exec unshare --mount --propagation private --pid --fork --mount-proc --net bash "$0" --inside
    ;;
  --inside) check_inside ;;
  *) sed -n '2,10p' "$0" && exit 2 ;;
esac
