#!/usr/bin/env bash
# CI: the package as a user gets it. `npm pack` (after `npm run build`: the tarball holds what
# `prepack` builds), then two projects outside the repository, each written by the packed CLI's
# `stackwright init` and installed from the tarball, not linked to the sources:
# - TypeScript, with the tsconfig `cdk8s init typescript-app` writes, on the newest cdk8s and
#   constructs the peer ranges allow (and @pulumi/* for the `stackwright/pulumi` types): npm install,
#   npx cdk8s synth, its jest test (which deploys to the in-memory cluster of stackwright/testing),
#   the CLI's graph and plan --help from the installed package, and every entry point type-checked
#   under node10, node16, nodenext and bundler resolution;
# - plain JavaScript on the lowest cdk8s and constructs the peer ranges allow: the same steps.
# Packages come from the npm cache when they are there (--prefer-offline), else the npm registry.
# Prints the tarball's size and file count and the time of every step.
#
#   bash scripts/ci/consumer.sh [work-dir]     (default: a new temporary directory, removed after)
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
work="${1:-}"
if [ -z "$work" ]; then
  work="$(mktemp -d "${TMPDIR:-/tmp}/stackwright-consumer.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
case "$work" in "$repo"/*) echo "consumer.sh: $work is inside the repository; choose a directory outside it" >&2 && exit 2 ;; esac

timed() {
  local label="$1" start=$SECONDS
  shift
  "$@"
  printf '  [%3ss] %s\n' "$((SECONDS - start))" "$label" >&2
}
peer() { node -p "require('$repo/package.json').peerDependencies['$1']"; }
dev() { node -p "require('$repo/package.json').devDependencies['$1']"; }
lowest() { peer "$1" | sed -E 's/^[\^~>=]*//; s/ .*//'; }
install() { npm install --prefer-offline --no-audit --no-fund --ignore-scripts --loglevel=error "$@" >/dev/null; }

echo "--- pack"
# .ci/run has just built (npm run build); standalone on an unbuilt clone, prepack builds.
pack_scripts=--ignore-scripts
[ -f "$repo/dist-lib/stackwright-cli.js" ] || pack_scripts=
tarball="$work/$(cd "$repo" && npm pack $pack_scripts --silent --pack-destination "$work" | tail -1)"
size=$(stat -c %s "$tarball")
files=$(tar tzf "$tarball" | grep -vc '/$')
printf 'tarball %s: %s bytes (%s KiB), %s files\n' "$(basename "$tarball")" "$size" "$((size / 1024))" "$files"
unexpected=$(tar tzf "$tarball" | grep -Ev '^package/(dist-lib/|constructs/openstack/schemas/|bin/stackwright\.js$|package\.json$|README\.md$|LICENSE$|CHANGELOG\.md$)' || true)
if [ -n "$unexpected" ]; then
  echo "the tarball ships files a user does not run:" >&2
  echo "$unexpected" >&2
  exit 1
fi
# `npx stackwright init` runs the package's CLI bundle: one file, no dependencies to install first.
mkdir -p "$work/cli" && tar xzf "$tarball" -C "$work/cli"
stackwright_init() { node "$work/cli/package/bin/stackwright.js" init "$@"; }

consumer() {
  local language="$1" dir="$work/$1-consumer"
  shift
  echo "--- $language consumer ($dir)"
  timed "stackwright init --language $language" stackwright_init "$dir" --language "$language" >/dev/null
  cd "$dir"
  timed "npm install <tarball> $*" install "$tarball" "$@"
  test ! -e node_modules/esbuild # the CLI must run without the repository's dev dependencies
  echo "  cdk8s $(node -p "require('cdk8s/package.json').version"), constructs $(node -p "require('constructs/package.json').version")"
  timed "npx cdk8s synth" npx cdk8s synth --check-upgrade false >/dev/null
  ls dist/*.k8s.yaml >/dev/null
  # The user's first run, which writes the snapshot (jest would refuse to under CI=true).
  timed "npm test" npm test --silent -- --ci=false >/dev/null
  timed "npx stackwright graph dist/" npx stackwright graph dist/ --format json >/dev/null
  timed "npx stackwright plan --help" npx stackwright plan --help >/dev/null
  cd "$work"
}

# Every entry point, imported the way a user imports it, type-checked in each resolution mode.
types_probe() {
  local dir="$work/typescript-consumer/.probe"
  mkdir -p "$dir"
  cat >"$dir/probe.ts" <<'EOF'
import { App } from 'cdk8s';
import { Cloud, referenceCloud } from 'stackwright';
import { MariaDB } from 'stackwright/constructs';
import { deploy } from 'stackwright/runtime';
import { StackwrightCloud } from 'stackwright/pulumi';
import { InMemoryCluster, synthComponent } from 'stackwright/testing';

const cloud: Cloud = referenceCloud(new App(), 'probe');
export const used = [MariaDB, deploy, StackwrightCloud, InMemoryCluster, synthComponent(cloud, 'db')];
EOF
  cp "$dir/probe.ts" "$dir/probe.mts"
  cd "$work/typescript-consumer"
  # node10 (cdk8s' tsconfig) checks our declaration files too; the other modes only resolve differently.
  for mode in commonjs:node10: node16:node16:--skipLibCheck nodenext:nodenext:--skipLibCheck esnext:bundler:--skipLibCheck; do
    IFS=: read -r module resolution skip <<<"$mode"
    timed "tsc, module $module, moduleResolution $resolution $skip" npx tsc --noEmit --strict --types node \
      --module "$module" --moduleResolution "$resolution" --target es2022 $skip "$dir/probe.ts" "$dir/probe.mts"
  done
  rm -rf "$dir"
  cd "$work"
}

start=$SECONDS
consumer typescript "@pulumi/pulumi@$(dev @pulumi/pulumi)" "@pulumi/kubernetes@$(dev @pulumi/kubernetes)"
types_probe
consumer javascript "cdk8s@$(lowest cdk8s)" "constructs@$(lowest constructs)"
echo "consumers passed in $((SECONDS - start))s"
