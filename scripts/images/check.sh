#!/usr/bin/env bash
# Quick proofs of the image contract (docs/images.md) without Kubernetes: each image's layers are
# mounted as a read-only overlay and its commands run chrooted as uid/gid 42424 (as root for the
# privileged node agents' libvirt and nova-compute images), with tmpfs on /tmp and /run as the pods have, in private mount, PID and network namespaces (nothing binds a
# host port, nothing outlives the check). Needs root and a finished scripts/images/build.sh.
#
#   check.sh            check every image
#   check.sh NAME...    check the named images (recipe names: keystone, mariadb, ...; keystone is
#                       every release of it, keystone@2024.2 one)
set -euo pipefail
shopt -s inherit_errexit
# shellcheck source=scripts/images/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

case "${1:-}" in
  -h | --help) sed -n '2,9p' "$0" && exit 0 ;;
esac
if [[ "${1:-}" != --inside ]]; then
  ((EUID == 0)) || { echo "[images] check.sh needs root (overlay mounts, chroot)" >&2; exit 1; }
  exec unshare --mount --propagation private --pid --fork --mount-proc --net bash ${STACKWRIGHT_IMAGES_CHECK_TRACE:+-x} "$0" --inside "$@"
fi
shift
ip link set lo up
CHECK_ROOT="$IMAGES_CACHE/check"
FAILED=()

# mount_image NAME: the image's rootfs, read-only, at $CHECK_ROOT/NAME (printed).
mount_image() {
  local name="$1" root="$CHECK_ROOT/$1" lowers
  lowers="$(imagelib rootfs "$name" | paste -sd:)"
  mkdir -p "$root"
  if [[ "$lowers" == *:* ]]; then
    mount -t overlay overlay -o "ro,lowerdir=$lowers" "$root"
  else # overlayfs needs two lower directories to mount without an upper one
    mount --bind "$lowers" "$root"
    mount -o remount,bind,ro "$root"
  fi
  mount --bind /dev "$root/dev"
  mount -t proc proc "$root/proc"
  mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"
  mount -t tmpfs -o mode=0755 tmpfs "$root/run"
  echo "$root"
}

# as_service ROOT SCRIPT: run SCRIPT with sh in ROOT as a container of the image runs: uid/gid
# 42424, the PATH and environment of the image's config (IMAGE_ENV) and nothing else.
IMAGE_ENV=()
as_service() {
  chroot --userspec=42424:42424 --groups=42424 "$1" /usr/bin/env -i \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp "${IMAGE_ENV[@]}" \
    /bin/sh -ec "$2"
}

# as_root ROOT SCRIPT: the same for the images of privileged node agents, which run as root.
as_root() {
  chroot "$1" /usr/bin/env -i \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp "${IMAGE_ENV[@]}" \
    /bin/sh -ec "$2"
}

# tcp_request PORT TEXT: send TEXT to 127.0.0.1:PORT, print the first line of the answer; fails
# when nothing listens.
tcp_request() {
  local line=
  { printf '%b' "$2" >&3 && { IFS= read -r -t 5 line <&3 || true; }; } 3<>"/dev/tcp/127.0.0.1/$1" || return 1
  printf '%s\n' "${line%$'\r'}"
}

# http_body PORT: the last line of GET / on 127.0.0.1:PORT.
http_body() {
  { printf 'GET / HTTP/1.0\r\n\r\n' >&3 && tail -n1 <&3; } 3<>"/dev/tcp/127.0.0.1/$1"
}

# retry SECONDS CMD...: run CMD every second until it succeeds or SECONDS pass.
retry() {
  local i
  for ((i = 0; i < $1; i++)); do "${@:2}" >/dev/null 2>&1 && return 0; sleep 1; done
  return 1
}

# chrooted_pids ROOT: the processes running in ROOT (this PID namespace holds only the check's).
chrooted_pids() {
  local proc
  for proc in /proc/[0-9]*; do
    if [[ "$(readlink "$proc/root" 2>/dev/null)" == "$1" ]]; then echo "${proc#/proc/}"; fi
  done
}

# stop_chrooted ROOT: end what a check left running in ROOT, by pid, so its mounts can go.
stop_chrooted() {
  local pids
  pids="$(chrooted_pids "$1")"
  [[ -z "$pids" ]] && return 0
  # shellcheck disable=SC2086 # one pid per word
  kill $pids 2>/dev/null || true
  retry 10 test -z "$(chrooted_pids "$1")" || true
}

check_minbase() {
  as_service "$1" '
    test "$(id -u):$(id -g)" = 42424:42424 && test "$(id -un)" = stackwright
    ! touch /etc/probe 2>/dev/null
    touch /tmp/probe'
}

check_toolbox() {
  as_service "$1" '
    kubectl version --client
    openssl rand 32 | base64 | tr "+/" "-_" | grep -Eq "^[A-Za-z0-9_=-]{44}$"
    curl --version | head -n1'
}

check_mariadb() {
  local root="$1"
  as_service "$root" '
    mariadbd --version; mariadb --version; mariadb-backup --version 2>&1 | head -n1
    socat -V | sed -n 2p; ss -V; test -f /usr/lib/galera/libgalera_smm.so; test -x /usr/bin/wsrep_sst_mariabackup
    mariadb-install-db --datadir=/tmp/data --skip-test-db --skip-name-resolve --auth-root-authentication-method=normal >/tmp/install.log 2>&1 ||
      { cat /tmp/install.log; exit 1; }'
  # /run/mysqld is an emptyDir in the pod, writable through fsGroup 42424.
  install -d -o 42424 -g 42424 "$root/run/mysqld"
  as_service "$root" 'exec mariadbd --datadir=/tmp/data --wsrep-on=OFF --port=3306 >/tmp/mariadbd.log 2>&1' &
  retry 60 as_service "$root" 'mariadb-admin -uroot ping' || { cat "$root/tmp/mariadbd.log"; return 1; }
  as_service "$root" '
    test "$(mariadb -uroot -N -e "select @@port, @@socket")" = "$(printf "3306\t/run/mysqld/mysqld.sock")"
    mariadb -uroot -h 127.0.0.1 -e "select version()"
    mariadb-admin -uroot shutdown'
  wait
}

check_rabbitmq() {
  local root="$1" env='export RABBITMQ_ERLANG_COOKIE=check-cookie RABBITMQ_NODENAME=rabbit@localhost '
  # The data volume, as the StatefulSet mounts it (the Erlang cookie and node state go there).
  mount -t tmpfs -o uid=42424,gid=42424,mode=0750 tmpfs "$root/var/lib/rabbitmq"
  as_service "$root" 'command -v rabbitmq-server rabbitmqctl rabbitmq-diagnostics rabbitmq-plugins'
  as_service "$root" "$env"'
    echo "[rabbitmq_management]." >/tmp/enabled_plugins
    RABBITMQ_ENABLED_PLUGINS_FILE=/tmp/enabled_plugins exec rabbitmq-server >/tmp/rabbitmq.log 2>&1' &
  # The manifests' probe.
  retry 90 as_service "$root" "$env; rabbitmq-diagnostics -q check_running" || { cat "$root/tmp/rabbitmq.log"; return 1; }
  [[ "$(tcp_request 15672 'GET /api/overview HTTP/1.0\r\n\r\n')" == "HTTP/1.1 401 Unauthorized" ]]
  as_service "$root" "$env; rabbitmqctl -q version; rabbitmqctl stop"
}

check_memcached() {
  local root="$1"
  as_service "$root" 'exec memcached -m 64 -p 11211 -l 127.0.0.1' &
  retry 10 tcp_request 11211 'version\r\n' || return 1
  [[ "$(tcp_request 11211 'version\r\n')" == "VERSION 1.6."* ]]
}

# The OpenStack release of the image being checked (the part after `@` of keystone@2024.2), and
# what its lock pins: the version an OpenStack image must carry.
RELEASE=
locked_version() {
  sed -n "s/^$1==//p" "$IMAGES_REPO_ROOT/python/openstack-$RELEASE.lock"
}

# as_service ROOT DIST...: each distribution is installed at the version the release's lock pins.
check_locked() {
  local root="$1" dist expected actual
  for dist in "${@:2}"; do
    expected="$(locked_version "$dist")"
    actual="$(as_service "$root" "python3 -c 'import importlib.metadata as m; print(m.version(\"$dist\"))'")"
    [[ -n "$expected" && "$actual" == "$expected" ]] || { echo "$dist $actual, the $RELEASE lock pins ${expected:-nothing}"; return 1; }
    echo "$dist $actual ($RELEASE)"
  done
}

# A WSGI app served by the image's uwsgi, the way the manifests' uwsgi command line runs the
# services: it answers with the versions of the service packages it can import.
WSGI_APP='import importlib.metadata as m
def application(env, start):
    start("200 OK", [("Content-Type", "text/plain")])
    return [" ".join(d + "=" + m.version(d) for d in ("keystone", "glance", "openstack-placement", "nova")).encode()]'

check_openstackclient() {
  local root="$1"
  as_service "$root" 'openstack --version; python3 -c "import openstack, pymysql, memcache; print(openstack.version.__version__)"'
  printf '%s\n' "$WSGI_APP" >"$root/tmp/app.py"
  as_service "$root" 'exec uwsgi --http-socket 127.0.0.1:8080 --wsgi-file /tmp/app.py --master --processes 1 --die-on-term --need-app >/tmp/uwsgi.log 2>&1' &
  retry 30 tcp_request 8080 'GET / HTTP/1.0\r\n\r\n' || { cat "$root/tmp/uwsgi.log"; return 1; }
  local body expected=() dist
  for dist in keystone glance openstack-placement nova; do expected+=("$dist=$(locked_version "$dist")"); done
  body="$(http_body 8080)"
  [[ "$body" == "${expected[*]}" ]] || { echo "uwsgi answered: $body, the $RELEASE lock pins: ${expected[*]}"; return 1; }
  check_locked "$root" python-openstackclient openstacksdk
}

check_keystone() {
  check_locked "$1" keystone
  as_service "$1" '
    keystone-manage --help >/dev/null; command -v keystone-wsgi-public keystone-wsgi-admin uwsgi
    test -f /etc/keystone/sso_callback_template.html
    test -d /etc/keystone/keystone.conf.d -a -d /etc/keystone/fernet-keys -a -d /etc/keystone/credential-keys'
}

check_glance() {
  check_locked "$1" glance
  as_service "$1" '
    glance-manage --help >/dev/null; command -v glance-api
    test -f /etc/glance/glance-api-paste.ini -a -d /etc/glance/metadefs -a -d /etc/glance/glance-api.conf.d
    python3 -c "import glance_store, pymysql"'
}

check_placement() {
  check_locked "$1" openstack-placement
  as_service "$1" '
    placement-manage --help >/dev/null; command -v placement-api uwsgi
    test -d /etc/placement/placement.conf.d
    python3 -c "import placement.wsgi"'
}

check_nova() {
  check_locked "$1" nova
  as_service "$1" '
    nova-manage --help >/dev/null
    command -v nova-api-wsgi nova-metadata-wsgi nova-scheduler nova-conductor nova-novncproxy uwsgi
    test -f /etc/nova/api-paste.ini -a -f /etc/nova/rootwrap.conf -a -d /etc/nova/nova.conf.d'
}

check_ovn() {
  local root="$1"
  # The OVSDB clusters and northd run as 42424; the node agent's containers run the same binaries.
  as_service "$root" '
    ovn-northd --version | head -n1; ovn-controller --version | head -n1
    ovsdb-server --version | head -n1; ovs-vswitchd --version | head -n1; ovs-vsctl --version | head -n1
    ovn-appctl --version | head -n1; ovs-appctl --version | head -n1
    for db in nb sb; do ovsdb-tool create /tmp/$db.db /usr/share/ovn/ovn-$db.ovsschema; done
    ovsdb-tool create /tmp/conf.db /usr/share/openvswitch/vswitch.ovsschema'
  # A northbound database served and written through ovn-nbctl, as northd and Neutron use it.
  as_service "$root" 'exec ovsdb-server /tmp/nb.db --remote=punix:/tmp/nb.sock --unixctl=/tmp/nb.ctl --pidfile=/tmp/nb.pid >/tmp/nb.log 2>&1' &
  retry 20 as_service "$root" 'test -S /tmp/nb.sock' || { cat "$root/tmp/nb.log"; return 1; }
  as_service "$root" '
    ovn-nbctl --db=unix:/tmp/nb.sock ls-add check
    test "$(ovn-nbctl --db=unix:/tmp/nb.sock ls-list | grep -c "(check)")" = 1
    ovs-appctl -t /tmp/nb.ctl exit'
}

check_libvirt() {
  as_root "$1" '
    libvirtd --version; virtlogd --version; virsh --version
    qemu-system-x86_64 --version | head -n1; qemu-img --version | head -n1; ovs-vsctl --version | head -n1
    qemu-system-x86_64 -accel help | grep -qx tcg
    test -f /usr/lib/x86_64-linux-gnu/libvirt/connection-driver/libvirt_driver_qemu.so
    test ! -e /etc/libvirt/qemu/networks/autostart/default.xml'
}

check_nova_compute() {
  check_locked "$1" nova
  as_root "$1" '
    nova-compute --version
    python3 -c "import libvirt, nova.virt.libvirt.driver; print(\"libvirt binding\", libvirt.getVersion())"
    qemu-img --version | head -n1; genisoimage --version 2>&1 | head -n1; ip -V'
  # The test guest passes the check this release's Nova runs on every base image before it boots
  # one (in its raw form: force_raw_images); 2024.2's refused a disk without a partition table.
  cp "$(bash "$IMAGES_REPO_ROOT/scripts/images/guest.sh" path)" "$1/tmp/guest.qcow2"
  as_root "$1" '
    qemu-img convert -O raw /tmp/guest.qcow2 /tmp/guest.raw
    python3 -c "
import sys
from oslo_utils.imageutils import format_inspector
format_inspector.detect_file_format(sys.argv[1]).safety_check()
print(\"the test guest passes the base image safety check\")" /tmp/guest.raw'
}

check_neutron() {
  check_locked "$1" neutron
  as_service "$1" '
    neutron-db-manage --help >/dev/null
    for c in neutron-server neutron-ovn-metadata-agent neutron-rootwrap privsep-helper; do command -v $c; done
    haproxy -v | head -n1; ip -V
    # What the metadata agent runs in each metadata namespace.
    for c in sysctl kill iptables-save iptables-restore; do command -v $c; done
    python3 -c "import neutron.plugins.ml2.drivers.ovn.mech_driver.mech_driver, neutron.agent.ovn.metadata.agent, pymysql"
    test -f /etc/neutron/api-paste.ini -a -f /etc/neutron/rootwrap.conf -a -d /etc/neutron/neutron.conf.d'
}

check_tempest() {
  local root="$1" expected
  # The file the SDK generates (scripts/images/tempest-conf.js, from the compiled library), read by
  # this Tempest: oslo.config's validator knows every option Tempest registers and fails on any
  # other, and Tempest's own loader reads it from a workspace `tempest init` made.
  [[ -f "$IMAGES_REPO_ROOT/dist-lib/constructs/tempest/index.js" ]] ||
    { echo "the compiled library has no constructs/tempest: run npm run build first"; return 1; }
  (cd "$IMAGES_REPO_ROOT" && node scripts/images/tempest-conf.js) >"$root/tmp/tempest.conf"
  # The Tempest pinned for the release the image is tagged with (constructs/tempest/tempest-release.ts).
  expected="$(cd "$IMAGES_REPO_ROOT" && node -p "require('./dist-lib/constructs/tempest').TEMPEST_RELEASES['$(imagelib refs | sed -n 's#^.*/tempest:##p')']")"
  as_service "$root" "
    test \"\$(tempest --version)\" = 'tempest $expected' || { tempest --version; exit 1; }
    python3 -c 'import tempest, openstack, subunit, stestr'
    oslo-config-validator --input-file /tmp/tempest.conf --namespace tempest.config --fatal-warnings
    cd /tmp && tempest init ws >/dev/null && cp /tmp/tempest.conf ws/etc/tempest.conf && cd ws
    # The admin password is not in the file: oslo.config's environment source gives it (secretEnv).
    OS_AUTH__ADMIN_PASSWORD=from-env python3 -c 'from tempest import config; c = config.CONF; print(c.identity.uri_v3, c.compute.image_ref); assert c.auth.admin_password == \"from-env\"'
    echo \"smoke tests listed: \$(tempest run --smoke --list-tests | grep -c '^tempest\.')\""
}

# Every image, or those named (keystone: each release of it); imagelib names a missing one.
listing="$(imagelib images "$@")" || exit 2
mapfile -t names <<<"$listing"
for name in "${names[@]}"; do
  start=$SECONDS
  root="$(mount_image "$name")"
  mapfile -t IMAGE_ENV < <(imagelib env "$name")
  RELEASE=
  [[ "$name" != *@* ]] || RELEASE="${name#*@}"
  recipe="${name%@*}"
  # A subshell outside any `if`, so `set -e` stops a check at its first failing command.
  set +e
  (set -e && "check_${recipe//-/_}" "$root") >"$CHECK_ROOT/$name.log" 2>&1
  rc=$?
  set -e
  if ((rc == 0)); then
    printf '[images] ok   %-22s %3ss\n' "$name" "$((SECONDS - start))" >&2
  else
    printf '[images] FAIL %-22s (output below)\n' "$name" >&2
    sed 's/^/    /' "$CHECK_ROOT/$name.log" >&2
    FAILED+=("$name")
  fi
  stop_chrooted "$root"
  umount -R -l "$root"
done
((${#FAILED[@]} == 0)) || { echo "[images] failed: ${FAILED[*]}" >&2; exit 1; }
