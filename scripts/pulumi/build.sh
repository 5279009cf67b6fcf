#!/usr/bin/env bash
# Builds the three Pulumi binaries that `pulumi up` of a Stackwright program needs, from Go modules
# through the module proxy, into a version-keyed cache outside the repository:
#   pulumi                      the CLI, v$PULUMI_VERSION (the version of the pinned @pulumi/pulumi)
#   pulumi-language-nodejs      the Node.js language host v$LANGHOST_VERSION + a flag shim
#   pulumi-resource-kubernetes  the Kubernetes provider v$PROVIDER_VERSION
# Why these versions, and what differs from a normal install: docs/pulumi.md.
#
#   build.sh               build what is missing (foreground), idempotent and resumable
#   build.sh --background  start the build detached; log, pid and exit code in the cache dir
#   build.sh --wait        wait for a background build and report its result
#   build.sh --bin-dir     print the directory to put on PATH
#   build.sh --force       rebuild every binary
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/lib/background.sh
source "$HERE/../lib/background.sh"

PULUMI_VERSION="v3.248.0"
LANGHOST_VERSION="v3.68.0"
PROVIDER_VERSION="4.25.0"
# provider/v4 is never tagged; this pseudo-version is the v4.25.0 release commit (modules/provider/go.mod).
PROVIDER_MODULE_VERSION="v4.0.0-20260115033456-f47bc2d6f199"

CACHE_ROOT="${STACKWRIGHT_PULUMI_CACHE:-$HOME/.cache/stackwright/pulumi}"
BG_NAME=pulumi
BG_DIR="$CACHE_ROOT/cli-${PULUMI_VERSION}_nodejs-${LANGHOST_VERSION}_kubernetes-v${PROVIDER_VERSION}"
BIN_DIR="$BG_DIR/bin"
WORK_DIR="$BG_DIR/work"
TIMES_FILE="$BG_DIR/build-times.txt"

export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS="-buildvcs=false -mod=mod"
# The checksum database answers 404 for some github.com/pulumi module versions through this
# machine's proxy; they are checked against the go.sum committed beside each wrapper module instead
# (`-mod=mod` adds nothing new once go.sum is complete, and a changed module fails the build).
export GONOSUMDB=github.com/pulumi
GO_BUILD_FLAGS=(-p 2 -trimpath)
FORCE=0

now() { date +%s; }
# CPU seconds (user + system) of this script's finished children, the go commands included: on a
# shared machine the wall time depends on the load, the CPU time much less (CI budget estimates).
cpu() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%d", ($16 + $17) / hz }' "/proc/$$/stat"; }
# record_time NAME START_WALL START_CPU: one line of build-times.txt.
record_time() {
  printf '%s\t%s\t%ss wall\t%ss cpu\tload %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$1" "$(($(now) - $2))" \
    "$(($(cpu) - $3))" "$(cut -d' ' -f1-3 /proc/loadavg)" >>"$TIMES_FILE"
}

# Copies a wrapper module (go.mod + the committed go.sum) into the work dir; the repository is
# never written by a build. After a version bump, copy the new go.sum back and commit it.
prepare_module() {
  local name="$1" dir="$WORK_DIR/$1"
  mkdir -p "$dir"
  cp "$HERE/modules/$name/go.mod" "$dir/go.mod"
  if [[ -f "$HERE/modules/$name/go.sum" ]]; then cp "$HERE/modules/$name/go.sum" "$dir/go.sum"; else rm -f "$dir/go.sum"; fi
  echo "$dir"
}

# True when BIN was built from MODULE at VERSION, read from the binary's build info (`mod`/`dep`
# lines). The provider has no version flag (its only flag is -tracing; anything else exits 2) and
# -trimpath keeps -ldflags, thus the -X version, out of the build info, so the source module's
# version is what can be checked.
built_from() {
  go version -m "$1" 2>/dev/null |
    awk -v m="$2" -v v="$3" '($1 == "mod" || $1 == "dep") && $2 == m && $3 == v { found = 1 } END { exit !found }'
}

binary_ok() {
  case "$1" in
    pulumi) [[ -x "$BIN_DIR/pulumi" ]] && "$BIN_DIR/pulumi" version 2>/dev/null | grep -qx "$PULUMI_VERSION" ;;
    pulumi-language-nodejs) [[ -x "$BIN_DIR/pulumi-language-nodejs" ]] &&
      built_from "$BIN_DIR/pulumi-language-nodejs-$LANGHOST_VERSION" github.com/pulumi/pulumi/sdk/v3 "$LANGHOST_VERSION" ;;
    pulumi-resource-kubernetes) built_from "$BIN_DIR/pulumi-resource-kubernetes" \
      github.com/pulumi/pulumi-kubernetes/provider/v4 "$PROVIDER_MODULE_VERSION" ;;
  esac
}

build_cli() {
  local dir s c
  dir="$(prepare_module cli)"
  s="$(now)" c="$(cpu)"
  (cd "$dir" && go build "${GO_BUILD_FLAGS[@]}" -tags osusergo,grpcnotrace \
    -ldflags "-w -s -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$PULUMI_VERSION" \
    -o "$BIN_DIR/.pulumi.tmp" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi)
  mv -f "$BIN_DIR/.pulumi.tmp" "$BIN_DIR/pulumi"
  record_time pulumi "$s" "$c"
}

build_language_nodejs() {
  local dir s c real="pulumi-language-nodejs-$LANGHOST_VERSION"
  dir="$(prepare_module language-nodejs)"
  s="$(now)" c="$(cpu)"
  (cd "$dir" && go build "${GO_BUILD_FLAGS[@]}" -tags osusergo \
    -ldflags "-w -s -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$LANGHOST_VERSION" \
    -o "$BIN_DIR/.$real.tmp" github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs)
  mv -f "$BIN_DIR/.$real.tmp" "$BIN_DIR/$real"
  # A host of this age reads Pulumi.yaml's runtime options only as flags (today's CLI sends them
  # over gRPC), so without the shim its default typescript=true (ts-node, type-checking) applies.
  cat >"$BIN_DIR/pulumi-language-nodejs" <<SHIM
#!/bin/sh
# Generated by scripts/pulumi/build.sh: pass Pulumi.yaml's runtime option the way a $LANGHOST_VERSION host reads it.
exec "\$(dirname "\$0")/$real" -typescript=false "\$@"
SHIM
  chmod 755 "$BIN_DIR/pulumi-language-nodejs"
  record_time pulumi-language-nodejs "$s" "$c"
}

build_provider() {
  local dir s c mod="github.com/pulumi/pulumi-kubernetes/provider/v4"
  dir="$(prepare_module provider)"
  s="$(now)" c="$(cpu)"
  # The module zip lacks schema-embed.json and terraform-mapping-embed.json (generated, git-ignored
  # upstream); everything they are made from is in it, so run the module's own go:generate.
  if [[ ! -s "$dir/src/cmd/pulumi-resource-kubernetes/schema-embed.json" ]]; then
    (cd "$dir" && go mod download "$mod@$PROVIDER_MODULE_VERSION")
    rm -rf "$dir/src.tmp"
    cp -r "$(cd "$dir" && go env GOMODCACHE)/$mod@$PROVIDER_MODULE_VERSION" "$dir/src.tmp"
    chmod -R u+w "$dir/src.tmp"
    (cd "$dir/src.tmp" && VERSION="$PROVIDER_VERSION" go generate ./cmd/pulumi-resource-kubernetes/)
    rm -rf "$dir/src" && mv "$dir/src.tmp" "$dir/src"
  fi
  (cd "$dir" && go build "${GO_BUILD_FLAGS[@]}" \
    -ldflags "-w -s -X $mod/pkg/version.Version=$PROVIDER_VERSION" \
    -o "$BIN_DIR/.pulumi-resource-kubernetes.tmp" "$mod/cmd/pulumi-resource-kubernetes")
  mv -f "$BIN_DIR/.pulumi-resource-kubernetes.tmp" "$BIN_DIR/pulumi-resource-kubernetes"
  record_time pulumi-resource-kubernetes "$s" "$c"
}

ensure() {
  local name="$1" fn="$2"
  if ((FORCE == 0)) && binary_ok "$name"; then
    bg_log "ok: $name"
    return 0
  fi
  bg_log "building $name (cold: tens of minutes on 2 cores) ..."
  "$fn"
  binary_ok "$name" || bg_die "$name was built but does not report the pinned version"
  bg_log "built $name"
}

do_build() {
  command -v go >/dev/null || bg_die "go not found: install Go >= 1.26"
  mkdir -p "$BIN_DIR" "$WORK_DIR"
  exec 9>"$BG_DIR/build.lock"
  flock -n 9 || bg_die "another build is running (see $BG_DIR/build.log); use build.sh --wait"
  ensure pulumi-language-nodejs build_language_nodejs
  ensure pulumi-resource-kubernetes build_provider
  ensure pulumi build_cli
  bg_log "all Pulumi binaries ready in $BIN_DIR"
}

case "${1:-}" in
  "") do_build ;;
  --force) FORCE=1 && do_build ;;
  --background) BG_ARGS=("$0") && bg_start "${BG_ARGS[@]}" ;;
  --wait) bg_wait && binary_ok pulumi && binary_ok pulumi-language-nodejs && binary_ok pulumi-resource-kubernetes ||
    bg_die "binaries incomplete in $BIN_DIR; run bash scripts/pulumi/build.sh" ;;
  --bin-dir) echo "$BIN_DIR" ;;
  -h | --help) sed -n '2,14p' "$0" ;;
  *) bg_die "unknown option $1 (try --help)" ;;
esac
