#!/usr/bin/env bash
# Records what the code synthesises (the reference cloud through `cdk8s synth`, and each example
# that synthesises when run) and compares it byte for byte with an earlier record: the check that
# a refactoring left the output unchanged.
#
#   scripts/dev/synth-compare.sh save DIR      # record into DIR (emptied first)
#   scripts/dev/synth-compare.sh compare DIR   # record into a temporary folder, diff against DIR
#
# Exit status of `compare`: 0 when every file is byte-identical, 1 otherwise (the diff is printed).
set -euo pipefail

usage() {
  echo "usage: $0 save|compare DIR" >&2
  exit 2
}
[[ $# -eq 2 ]] || usage
mode=$1
dir=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)

# Synthesises everything into $1/<source>/.
record() {
  local out=$1 example
  rm -rf "$out"
  mkdir -p "$out"
  (cd "$repo" && npx cdk8s synth --check-upgrade false --output "$out/reference-cloud" >/dev/null)
  for example in "$repo"/examples/*.ts; do
    # Only the examples that synthesise when run as a program (`require.main === module`).
    grep -q 'require.main === module' "$example" || continue
    (cd "$repo" && CDK8S_OUTDIR="$out/examples/$(basename "$example" .ts)" \
      node --require ./bin/ts-register.js "$example")
  done
}

case $mode in
  save)
    record "$dir"
    echo "recorded $(find "$dir" -type f | wc -l) files in $dir"
    ;;
  compare)
    [[ -d $dir ]] || {
      echo "$dir: no record; run '$0 save $dir' first" >&2
      exit 2
    }
    now=$(mktemp -d)
    trap 'rm -rf "$now"' EXIT
    record "$now"
    if diff -r "$dir" "$now"; then
      echo "byte-identical: $(find "$now" -type f | wc -l) files"
    else
      echo "synthesised output differs from $dir" >&2
      exit 1
    fi
    ;;
  *) usage ;;
esac
