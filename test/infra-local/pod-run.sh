#!/usr/bin/env bash
# Runs one rendered container (see render.ts) the way the kubelet would, without Kubernetes: called
# by lib.sh inside the member's network namespace and a private mount + UTS namespace, as root.
#   pod-run.sh start KIT argv STATE POD  bind-mounts the volumes (data and emptyDirs from STATE,
#                                         ConfigMaps and Secrets from KIT), makes / read-only, and
#                                         execs the container command as uid/gid 42424
#   pod-run.sh exec KIT PROBE             runs a probe command (KIT/PROBE) as the same user and env
set -euo pipefail

mode=$1 kit=$2
mapfile -d '' env_vars <"$kit/env"
mapfile -d '' argv <"$kit/${3:-argv}"
# The images' PATH (the RabbitMQ one puts the real scripts, not Debian's root wrappers, first).
path=/usr/lib/rabbitmq/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
as_pod_user() {
  exec env -i HOME=/ PATH="$path" "${env_vars[@]}" \
    setpriv --reuid 42424 --regid 42424 --clear-groups --no-new-privs -- "$@"
}

case $mode in
  start)
    state=$4 pod=$5
    hostname "$pod"
    while IFS=$'\t' read -r target kind source; do
      case $kind in
        data) source=$state/data ;;
        empty) source=$state/empty/$source ;;
      esac
      mount --bind "$source" "$target"
    done <"$kit/mounts"
    # A remount to read-only fails with EBUSY while anything writes through the mount at that
    # instant (an atime update is enough): seen once in CI on a member's restart. Retry briefly.
    for attempt in 1 2 3 4 5; do
      mount -o remount,bind,ro / && break
      [ "$attempt" -lt 5 ] || exit 1
      sleep 0.2
    done
    cd /
    as_pod_user "${argv[@]}"
    ;;
  exec)
    cd /
    as_pod_user "${argv[@]}"
    ;;
  *)
    echo "usage: pod-run.sh start KIT argv STATE POD | exec KIT PROBE" >&2
    exit 2
    ;;
esac
