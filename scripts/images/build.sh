#!/usr/bin/env bash
# Builds the test images described by images/*.toml into a cache outside the repository (keyed by
# each recipe's content, the lock file and the layers below it) and writes one docker-archive with
# all of them for scripts/images/import.sh. Needs root (mmdebstrap, overlayfs, chroot), Debian's
# mmdebstrap (installed with apt-get when missing) and Python >= 3.11. See docs/images.md.
# Recipes with `releases` are built for each OpenStack release they list (keystone:2024.2 and
# keystone:2025.1, each on its release's OpenStack layer); the archive holds every tag.
#
#   build.sh               build what is missing (foreground), idempotent and resumable
#   build.sh --background  start the build detached; log, pid and exit code in the cache dir
#   build.sh --wait        wait for a background build and report its result
#   build.sh --archive     print the path of the built archive
#
# The toolbox image needs the cluster's kubectl: every other layer is built first, then the build
# waits for scripts/cluster/build.sh's control plane, kubectl included (run it, or its
# --background, before or alongside this).
set -euo pipefail
# shellcheck source=scripts/images/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=scripts/lib/background.sh
source "$IMAGES_REPO_ROOT/scripts/lib/background.sh"

BG_NAME=images
BG_DIR="$IMAGES_CACHE"

require_tools() {
  ((EUID == 0)) || bg_die "needs root (mmdebstrap --mode=root, overlay mounts, chroot)"
  python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
    bg_die "python3 >= 3.11 needed (tomllib); found $(python3 --version 2>&1)"
  command -v unshare >/dev/null || bg_die "unshare not found (util-linux)"
  if ! command -v mmdebstrap >/dev/null; then
    bg_log "installing mmdebstrap with apt-get"
    { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q mmdebstrap; } >/dev/null ||
      bg_die "apt-get install mmdebstrap failed; install it by hand (Debian package mmdebstrap)"
  fi
}

do_build() {
  local start=$SECONDS
  require_tools
  mkdir -p "$IMAGES_CACHE"
  exec 9>"$IMAGES_CACHE/build.lock"
  flock -n 9 || bg_die "another build is running (see $IMAGES_CACHE/build.log); use build.sh --wait"
  if [[ ! -x "$STACKWRIGHT_KUBECTL" ]]; then
    imagelib build --only-ready
    # kubectl is one of the control plane's binaries: no need to wait for the real node's (CoreDNS
    # and the provisioner take minutes more); the toolbox and the archive overlap with them.
    bg_log "waiting for the cluster build to provide $STACKWRIGHT_KUBECTL"
    bash "$IMAGES_REPO_ROOT/scripts/cluster/build.sh" --wait control-plane
  fi
  imagelib build >/dev/null
  bg_log "images ready in $(imagelib archive) (build.sh took $((SECONDS - start))s)"
}

case "${1:-}" in
  "") do_build ;;
  --background) bg_start bash "$IMAGES_SCRIPTS_DIR/build.sh" ;;
  --wait) bg_wait && imagelib archive >/dev/null ;;
  --archive) imagelib archive ;;
  -h | --help) sed -n '2,15p' "$0" ;;
  *) bg_die "unknown option $1 (try --help)" ;;
esac
