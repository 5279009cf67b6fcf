#!/usr/bin/env bash
# The Python venv of the OpenStack services of one release, installed from the committed lock
# (python/openstack-<release>.lock: a pip freeze resolved under the release's upper-constraints),
# into a cache outside the repository keyed by the lock's hash. Used by schemas.sh (option schemas)
# and check-configs.sh (the rendered configuration against the real code).
#
#   venv.sh [RELEASE]               build the venv if missing (foreground), print its path
#   venv.sh [RELEASE] --background  start the build detached; log, pid and exit code in the cache dir
#   venv.sh [RELEASE] --wait        wait for a background build, then print the venv's path
#   venv.sh [RELEASE] --path        print where the venv is (built or not)
#
# `pip install --no-deps -r LOCK`: exactly the locked versions, nothing resolved again, so two
# builds of one lock hold the same packages. RELEASE defaults to 2025.1.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
# shellcheck source=scripts/lib/background.sh
source "$HERE/../lib/background.sh"

RELEASE=2025.1
MODE=build
for arg in "$@"; do
  case "$arg" in
    --background | --wait | --path) MODE="${arg#--}" ;;
    -*) echo "usage: venv.sh [RELEASE] [--background|--wait|--path]" >&2 && exit 2 ;;
    *) RELEASE="$arg" ;;
  esac
done

LOCK="$ROOT/python/openstack-$RELEASE.lock"
[[ -f "$LOCK" ]] || { echo "[openstack-venv] no lock file $LOCK" >&2 && exit 1; }
PYTHON="${STACKWRIGHT_PYTHON:-python3}"
PY_VERSION="$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
KEY="$(sha256sum "$LOCK" | cut -c1-16)"
BG_NAME=openstack-venv
BG_DIR="${STACKWRIGHT_OPENSTACK_VENV_CACHE:-$HOME/.cache/stackwright/openstack-venv}/$RELEASE-py$PY_VERSION-$KEY"
VENV="$BG_DIR/venv"

build() {
  if [[ -f "$VENV/.complete" ]]; then
    bg_log "venv up to date: $VENV"
    return 0
  fi
  local start=$SECONDS
  rm -rf "$VENV"
  "$PYTHON" -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-deps -r "$LOCK"
  # The lock holds complete dependency closures; a missing one shows here, not at run time.
  "$VENV/bin/pip" check
  touch "$VENV/.complete"
  printf '%s\tbuild\t%ss\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$((SECONDS - start))" >>"$BG_DIR/build-times.txt"
  bg_log "venv built in $((SECONDS - start))s: $VENV"
}

case "$MODE" in
  path) echo "$VENV" ;;
  background) bg_start bash "$HERE/venv.sh" "$RELEASE" ;;
  wait)
    bg_wait
    [[ -f "$VENV/.complete" ]] || build >&2
    echo "$VENV"
    ;;
  build)
    mkdir -p "$BG_DIR"
    build >&2
    echo "$VENV"
    ;;
esac
