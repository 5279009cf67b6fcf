# shellcheck shell=bash
# Shared by scripts/images/*.sh. Sourced, never executed.

IMAGES_SCRIPTS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
IMAGES_REPO_ROOT="$(cd "$IMAGES_SCRIPTS_DIR/../.." && pwd)"
IMAGES_CACHE="${STACKWRIGHT_IMAGES_CACHE:-$HOME/.cache/stackwright/images}"
# shellcheck source=scripts/cluster/lib.sh
source "$IMAGES_REPO_ROOT/scripts/cluster/lib.sh"
# The toolbox image carries the test cluster's own kubectl (same version as its API server).
export STACKWRIGHT_KUBECTL="${STACKWRIGHT_KUBECTL:-$BIN_DIR/kubectl}"

# imagelib ARGS...: the Python builder (stdlib only), run from its own directory.
imagelib() {
  (cd "$IMAGES_SCRIPTS_DIR" && python3 -m imagelib --repo "$IMAGES_REPO_ROOT" --cache "$IMAGES_CACHE" "$@")
}
