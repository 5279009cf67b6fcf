#!/usr/bin/env bash
# Builds the GitOps engines the e2e suite and the rollout benchmark run for real, from Go modules
# through the module proxy, into a version-keyed cache outside the repository:
#   kustomize-controller  Flux's kustomize-controller v$KC_VERSION (run as a process, not a pod)
#   kapp                  the kapp CLI v$KAPP_VERSION
#   crds/                 the Flux CRDs kustomize-controller reads, from the Go module zips
#                         (Kustomization from kustomize-controller, the sources from source-controller)
# Flux's source-controller is not built: the proxy refuses a module it needs (docs/gitops.md);
# the e2e suite serves the exported tree through its own loopback source instead.
#
#   build.sh               build what is missing (foreground), idempotent and resumable
#   build.sh --background  start the build detached; log, pid and exit code in the cache dir
#   build.sh --wait        wait for a background build and report its result
#   build.sh --dir         print the cache directory (bin/ and crds/ below it)
#   build.sh --force       rebuild every binary
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/lib/background.sh
source "$HERE/../lib/background.sh"
# shellcheck source=scripts/lib/go-module-build.sh
source "$HERE/../lib/go-module-build.sh"

KC_VERSION="v1.9.6"
KAPP_VERSION="v0.64.2"
# The source API kustomize-controller $KC_VERSION is built against (its go.mod); the CRDs come
# from the source-controller module of that version.
SOURCE_API_VERSION="v1.9.0"

CACHE_ROOT="${STACKWRIGHT_GITOPS_CACHE:-$HOME/.cache/stackwright/gitops}"
BG_NAME=gitops
BG_DIR="$CACHE_ROOT/kustomize-controller-${KC_VERSION}_kapp-${KAPP_VERSION}"
BIN_DIR="$BG_DIR/bin"
CRD_DIR="$BG_DIR/crds"
WORK_DIR="$BG_DIR/work"
TIMES_FILE="$BG_DIR/build-times.txt"
CRD_FILES=(
  "github.com/fluxcd/kustomize-controller@$KC_VERSION:kustomize.toolkit.fluxcd.io_kustomizations.yaml"
  "github.com/fluxcd/source-controller@$SOURCE_API_VERSION:source.toolkit.fluxcd.io_gitrepositories.yaml"
  "github.com/fluxcd/source-controller@$SOURCE_API_VERSION:source.toolkit.fluxcd.io_ocirepositories.yaml"
  "github.com/fluxcd/source-controller@$SOURCE_API_VERSION:source.toolkit.fluxcd.io_buckets.yaml"
  "github.com/fluxcd/source-controller@$SOURCE_API_VERSION:source.toolkit.fluxcd.io_externalartifacts.yaml"
)

export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS="-buildvcs=false -mod=mod"
# shellcheck source=scripts/lib/go-build-flags.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/go-build-flags.sh"
FORCE=0

binary_ok() {
  case "$1" in
    kustomize-controller) built_from "$BIN_DIR/kustomize-controller" github.com/fluxcd/kustomize-controller "$KC_VERSION" ;;
    kapp) [[ -x "$BIN_DIR/kapp" ]] && "$BIN_DIR/kapp" version 2>/dev/null | grep -qx "kapp version ${KAPP_VERSION#v}" ;;
  esac
}

crds_ok() {
  local entry
  for entry in "${CRD_FILES[@]}"; do [[ -s "$CRD_DIR/${entry#*:}" ]] || return 1; done
}

build_kustomize_controller() {
  local dir s c
  dir="$(prepare_module kustomize-controller)"
  s="$(now)" c="$(cpu)"
  (cd "$dir" && go build "${GO_BUILD_FLAGS[@]}" -ldflags "-w -s" \
    -o "$BIN_DIR/.kustomize-controller.tmp" "github.com/fluxcd/kustomize-controller")
  mv -f "$BIN_DIR/.kustomize-controller.tmp" "$BIN_DIR/kustomize-controller"
  record_time kustomize-controller "$s" "$c"
}

build_kapp() {
  local dir s c
  dir="$(prepare_module kapp)"
  s="$(now)" c="$(cpu)"
  (cd "$dir" && go build "${GO_BUILD_FLAGS[@]}" \
    -ldflags "-w -s -X carvel.dev/kapp/pkg/kapp/version.Version=${KAPP_VERSION#v}" \
    -o "$BIN_DIR/.kapp.tmp" "carvel.dev/kapp/cmd/kapp")
  mv -f "$BIN_DIR/.kapp.tmp" "$BIN_DIR/kapp"
  record_time kapp "$s" "$c"
}

# The CRDs as the releases ship them, from each module's config/crd/bases (no network but the proxy).
copy_crds() {
  local entry module file dir
  mkdir -p "$CRD_DIR"
  for entry in "${CRD_FILES[@]}"; do
    module="${entry%%:*}" file="${entry#*:}"
    dir="$(cd "$WORK_DIR" && go mod download -json "$module" | awk -F'"' '$2 == "Dir" { print $4 }')"
    [[ -s "$dir/config/crd/bases/$file" ]] || bg_die "$module has no config/crd/bases/$file"
    install -m 644 "$dir/config/crd/bases/$file" "$CRD_DIR/$file"
  done
}


do_build() {
  command -v go >/dev/null || bg_die "go not found: install Go >= 1.26"
  mkdir -p "$BIN_DIR" "$WORK_DIR"
  exec 9>"$BG_DIR/build.lock"
  flock -n 9 || bg_die "another build is running (see $BG_DIR/build.log); use build.sh --wait"
  crds_ok || copy_crds
  ensure kapp build_kapp
  ensure kustomize-controller build_kustomize_controller
  bg_log "ready: $BIN_DIR, CRDs in $CRD_DIR"
}

case "${1:-}" in
  "") do_build ;;
  --force) FORCE=1 && do_build ;;
  --background) bg_start "$0" ;;
  --wait) bg_wait && binary_ok kustomize-controller && binary_ok kapp && crds_ok ||
    bg_die "binaries or CRDs incomplete in $BG_DIR; run bash scripts/gitops/build.sh" ;;
  --dir) echo "$BG_DIR" ;;
  -h | --help) sed -n '2,16p' "$0" ;;
  *) bg_die "unknown option $1 (try --help)" ;;
esac
