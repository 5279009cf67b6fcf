#!/usr/bin/env bash
# Builds the e2e cluster binaries (kube-apiserver, kube-controller-manager, kube-scheduler,
# kubectl, etcd, kwok, and for the real node kubelet, kube-proxy, CoreDNS, local-path-provisioner
# and the pause program) from source through the Go module proxy into a version-keyed cache
# outside the repository, and assembles the kwok stage file and the pause image archive.
#
#   build.sh               build what is missing (foreground), idempotent and resumable
#   build.sh --background  start the build detached; log + pid file in the cache dir
#   build.sh --wait        wait for a background build and report its result
#   build.sh --wait control-plane  return as soon as a kwok-only cluster can start (the control
#                          plane's binaries and kwok's stages), the real node's may still build
#   build.sh --print-replaces  print the staging replace block for K8S_VERSION (for bumps)
#   build.sh --force       rebuild every binary even if the cached one is fine
set -euo pipefail
# shellcheck source=scripts/cluster/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# Static binaries, no toolchain download; the build flags are shared with the other Go builds.
# GOMODCACHE/GOCACHE stay at their defaults, outside the repo.
export GOTOOLCHAIN=local CGO_ENABLED=0
# shellcheck source=scripts/lib/go-build-flags.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/go-build-flags.sh"

FORCE=0

k8s_ldflags() {
  local minor ldf p date
  minor="$(printf '%s' "$K8S_VERSION" | cut -d. -f2)"
  date="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  ldf="-s -w"
  # Without these, /version reports v0.0.0-master and kubectl warns about version skew.
  for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ldf+=" -X $p.gitVersion=$K8S_VERSION -X $p.gitMajor=1 -X $p.gitMinor=$minor"
    ldf+=" -X $p.gitTreeState=clean -X $p.buildDate=$date"
  done
  printf '%s' "$ldf"
}

record_time() {
  printf '%s\t%s\t%ss\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$1" "$2" >>"$BUILD_TIMES_FILE"
}

# Build into a temp name and rename, so an interrupted build never leaves a
# half-written binary that a later run would mistake for a finished one.
build_k8s_binary() {
  local name="$1" start
  start="$(now)"
  log "building $name $K8S_VERSION (cold: several minutes) ..."
  (cd "$K8S_WRAPPER_DIR" && go build "${GO_BUILD_FLAGS[@]}" \
    -tags selinux,notest,grpcnotrace -ldflags "$(k8s_ldflags)" \
    -o "$BIN_DIR/.$name.tmp" "k8s.io/kubernetes/cmd/$name")
  mv -f "$BIN_DIR/.$name.tmp" "$BIN_DIR/$name"
  record_time "$name" "$(elapsed "$start")"
  log "built $name in $(elapsed "$start")s"
}

build_etcd() {
  local start
  start="$(now)"
  log "building etcd $ETCD_VERSION ..."
  (cd "$ETCD_WRAPPER_DIR" && go build "${GO_BUILD_FLAGS[@]}" -ldflags "-s -w" \
    -o "$BIN_DIR/.etcd.tmp" go.etcd.io/etcd/server/v3)
  mv -f "$BIN_DIR/.etcd.tmp" "$BIN_DIR/etcd"
  record_time etcd "$(elapsed "$start")"
  log "built etcd in $(elapsed "$start")s"
}

build_kwok() {
  local start tmp
  start="$(now)"
  log "installing kwok $KWOK_VERSION ..."
  tmp="$BIN_DIR/.kwok-gobin"
  rm -rf "$tmp" && mkdir -p "$tmp"
  # kwok's go.mod has no replace directives, so plain `go install pkg@version` works.
  # Run outside any module so the repo's wrapper modules cannot influence resolution.
  (cd "$tmp" && GOBIN="$tmp" go install "${GO_BUILD_FLAGS[@]}" -ldflags "-s -w" \
    "sigs.k8s.io/kwok/cmd/kwok@$KWOK_VERSION")
  mv -f "$tmp/kwok" "$BIN_DIR/kwok"
  rm -rf "$tmp"
  record_time kwok "$(elapsed "$start")"
  log "built kwok in $(elapsed "$start")s"
}

build_coredns() {
  local start
  start="$(now)"
  log "building coredns $COREDNS_VERSION ..."
  (cd "$COREDNS_WRAPPER_DIR" && go build "${GO_BUILD_FLAGS[@]}" -ldflags "-s -w" \
    -o "$BIN_DIR/.coredns.tmp" .)
  mv -f "$BIN_DIR/.coredns.tmp" "$BIN_DIR/coredns"
  record_time coredns "$(elapsed "$start")"
  log "built coredns in $(elapsed "$start")s"
}

build_local_path_provisioner() {
  local start tmp
  start="$(now)"
  log "installing local-path-provisioner $LOCAL_PATH_VERSION ..."
  tmp="$BIN_DIR/.local-path-gobin"
  rm -rf "$tmp" && mkdir -p "$tmp"
  # No replace directives in its go.mod; main.VERSION is what its release build stamps too.
  (cd "$tmp" && GOBIN="$tmp" go install "${GO_BUILD_FLAGS[@]}" \
    -ldflags "-s -w -X main.VERSION=$LOCAL_PATH_VERSION" \
    "github.com/rancher/local-path-provisioner@$LOCAL_PATH_VERSION")
  mv -f "$tmp/local-path-provisioner" "$BIN_DIR/local-path-provisioner"
  rm -rf "$tmp"
  record_time local-path-provisioner "$(elapsed "$start")"
  log "built local-path-provisioner in $(elapsed "$start")s"
}

build_pause() {
  (cd "$PAUSE_SOURCE_DIR" && go build "${GO_BUILD_FLAGS[@]}" -ldflags "-s -w" -o "$BIN_DIR/.pause.tmp" .)
  mv -f "$BIN_DIR/.pause.tmp" "$BIN_DIR/pause"
  rm -f "$PAUSE_IMAGE_ARCHIVE"
  log "built pause"
}

# The pause image as a docker-archive (what `ctr image import` reads): one layer holding /pause,
# its config, and manifest.json naming it $PAUSE_IMAGE. Fixed owners and times keep it reproducible.
assemble_pause_image() {
  [[ -s "$PAUSE_IMAGE_ARCHIVE" ]] && return 0
  local dir layer_sha config config_sha
  dir="$(mktemp -d)"
  mkdir -p "$dir/rootfs"
  install -m 0755 "$BIN_DIR/pause" "$dir/rootfs/pause"
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$dir/rootfs" -cf "$dir/layer.tar" pause
  layer_sha="$(sha256sum "$dir/layer.tar" | cut -d' ' -f1)"
  mkdir -p "$dir/image/$layer_sha"
  mv "$dir/layer.tar" "$dir/image/$layer_sha/layer.tar"
  # 65535: the unprivileged "nobody" id the sandbox needs no more than.
  config='{"architecture":"amd64","os":"linux","config":{"Entrypoint":["/pause"],"User":"65535:65535"},"rootfs":{"type":"layers","diff_ids":["sha256:'"$layer_sha"'"]}}'
  config_sha="$(printf '%s' "$config" | sha256sum | cut -d' ' -f1)"
  printf '%s' "$config" >"$dir/image/$config_sha.json"
  printf '[{"Config":"%s.json","RepoTags":["%s"],"Layers":["%s/layer.tar"]}]' \
    "$config_sha" "$PAUSE_IMAGE" "$layer_sha" >"$dir/image/manifest.json"
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$dir/image" -cf "$PAUSE_IMAGE_ARCHIVE.tmp" .
  mv -f "$PAUSE_IMAGE_ARCHIVE.tmp" "$PAUSE_IMAGE_ARCHIVE"
  rm -rf "$dir"
  log "pause image: $PAUSE_IMAGE_ARCHIVE ($PAUSE_IMAGE)"
}

ensure_binary() {
  local name="$1"
  if ((FORCE == 0)) && binary_ok "$name"; then
    log "ok: $name ($(expected_version "$name"))"
    return 0
  fi
  case "$name" in
    etcd) build_etcd ;;
    kwok) build_kwok ;;
    coredns) build_coredns ;;
    local-path-provisioner) build_local_path_provisioner ;;
    pause) build_pause ;;
    *) build_k8s_binary "$name" ;;
  esac
  binary_ok "$name" || die "$name was built but does not report '$(expected_version "$name")': $(binary_version "$name" | head -1)"
}

# Standalone kwok ships no default stages; assemble the same set kwokctl writes
# (from the read-only module source) plus our own stages in scripts/cluster/kwok/.
assemble_stages() {
  local kwok_dir f tmp
  kwok_dir="$(cd "$BIN_DIR" && go mod download -json "sigs.k8s.io/kwok@$KWOK_VERSION" |
    sed -nE 's/^[[:space:]]*"Dir": "(.*)",?$/\1/p')"
  [[ -d "$kwok_dir/kustomize/stage" ]] || die "kwok module source not found in module cache ($kwok_dir)"
  tmp="$KWOK_STAGES_FILE.tmp"
  {
    echo "# Generated by scripts/cluster/build.sh from sigs.k8s.io/kwok@$KWOK_VERSION and scripts/cluster/kwok/. Do not edit."
    # Order matters only for readability; kwok matches stages by selector, then weight.
    # kwokctl's defaults (node-initialize, heartbeat-with-lease, fast pod-ready/complete/delete)
    # plus the fast volume stages so PVCs of class kwok-volume bind (StatefulSet claims).
    for f in node/fast/node-initialize.yaml \
      node/heartbeat-with-lease/node-heartbeat-with-lease.yaml \
      pod/fast/pod-ready.yaml \
      pod/fast/pod-complete.yaml \
      pod/fast/pod-delete.yaml \
      volume/fast/pvc-provision.yaml \
      volume/fast/pv-bind.yaml \
      volume/fast/pv-delete.yaml \
      volume/fast/pvc-delete.yaml; do
      echo "---"
      echo "# upstream: kustomize/stage/$f"
      sed -e '/^---[[:space:]]*$/d' "$kwok_dir/kustomize/stage/$f"
    done
    for f in "$CLUSTER_SCRIPTS_DIR"/kwok/*.yaml; do
      echo "---"
      echo "# stackwright: scripts/cluster/kwok/$(basename "$f")"
      cat "$f"
    done
  } >"$tmp"
  mv -f "$tmp" "$KWOK_STAGES_FILE"
  log "kwok stages: $KWOK_STAGES_FILE"
}

do_build() {
  require_go
  mkdir -p "$BIN_DIR"
  exec 9>"$BUILD_LOCK_FILE"
  if ! flock -n 9; then
    # With every binary there, the holder only re-assembles the kwok stages (a second cluster's
    # up.sh at the same moment): a second or two. A real build is waited for with --wait.
    all_binaries_ok || die "another build is running for $VERSION_KEY (see $BUILD_LOG); use build.sh --wait"
    flock -w 120 9 || die "another build.sh has held $BUILD_LOCK_FILE for 120 s with every binary built; see $BUILD_LOG"
  fi
  local start name
  start="$(now)"
  for name in "${CONTROL_PLANE_BINARIES[@]}"; do
    ensure_binary "$name"
  done
  # Here a kwok-only cluster can start (`--wait control-plane` returns) while the rest builds.
  assemble_stages
  for name in "${REAL_NODE_BINARIES[@]}"; do
    ensure_binary "$name"
  done
  assemble_pause_image
  log "all binaries ready in $BIN_DIR (build.sh took $(elapsed "$start")s)"
}

start_background() {
  bg_start "$0"
  log "wait with: bash scripts/cluster/build.sh --wait"
}

wait_background() {
  bg_wait
  all_binaries_ok || die "binaries incomplete in $BIN_DIR; run bash scripts/cluster/build.sh"
  log "binaries ready in $BIN_DIR"
}

# Returns once the control plane's binaries and kwok's stages exist, while a background build may
# still be building the real node's.
wait_control_plane() {
  bg_wait_for control_plane_ok
  control_plane_ok || die "control-plane binaries incomplete in $BIN_DIR; run bash scripts/cluster/build.sh"
  log "control-plane binaries ready in $BIN_DIR"
}

print_replaces() {
  require_go
  local modfile sv
  sv="v0.${K8S_VERSION#v1.}"
  modfile="$(cd /tmp && go mod download -json "k8s.io/kubernetes@$K8S_VERSION" |
    sed -nE 's/^[[:space:]]*"GoMod": "(.*)",?$/\1/p')"
  echo "replace ("
  grep -oE 'k8s\.io/[a-z0-9-]+ => \./staging' "$modfile" | awk -v v="$sv" '{print "\t"$1" => "$1" "v}'
  echo ")"
  grep -E '^(go|godebug) ' "$modfile"
}

main() {
  case "${1:-}" in
    "") do_build ;;
    --force) FORCE=1 && do_build ;;
    --background) start_background ;;
    --wait)
      case "${2:-}" in
        "") wait_background ;;
        control-plane) wait_control_plane ;;
        *) die "unknown --wait target $2 (try --wait or --wait control-plane)" ;;
      esac
      ;;
    --print-replaces) print_replaces ;;
    -h | --help) sed -n '2,11p' "$0" ;;
    *) die "unknown option $1 (try --help)" ;;
  esac
}

main "$@"
