#!/usr/bin/env bash
# Imports the images built by scripts/images/build.sh into a containerd, namespace k8s.io (the
# one the CRI and so the kubelet use). Skips the import when every image reference already points
# at the image built from the current recipes, so a warm run takes a second or two.
#
#   import.sh CONTAINERD_ADDRESS      e.g. import.sh /run/stackwright-node/containerd.sock
set -euo pipefail
# shellcheck source=scripts/images/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

die() {
  printf '[images] ERROR: %s\n' "$*" >&2
  exit 1
}

address="${1:-}"
[[ -n "$address" ]] || die "usage: import.sh CONTAINERD_ADDRESS (the socket of the containerd to import into)"
[[ -S "$address" ]] || die "no containerd socket at $address; start the node's containerd first"
command -v ctr >/dev/null || die "ctr not found; apt-get install -y containerd"
archive="$(imagelib archive)" || die "images not built; run bash scripts/images/build.sh (or --wait for a background build)"
index="${archive%.tar}.json"
ctr=(ctr -a "$address" -n k8s.io)

# Prints the references whose image in containerd is missing or has another config than the
# one built (the index maps each reference to its config digest).
stale_refs() {
  local listing
  listing="$("${ctr[@]}" images ls)"
  python3 - "$index" "$listing" "${ctr[@]}" <<'PY'
import json, subprocess, sys
index, listing, ctr = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3:]
held = dict(line.split()[0:3:2] for line in listing.splitlines()[1:] if line.strip())
for ref, config in sorted(index.items()):
    manifest = held.get(ref)
    if manifest:
        blob = subprocess.run([*ctr, 'content', 'get', manifest], capture_output=True).stdout
        try:
            if json.loads(blob)['config']['digest'] == config:
                continue
        except (ValueError, KeyError):
            pass
    print(ref)
PY
}

start=$SECONDS
stale="$(stale_refs)"
if [[ -z "$stale" ]]; then
  printf '[images] all %s images up to date in %s\n' "$(grep -c sha256 "$index")" "$address" >&2
  exit 0
fi
printf '[images] importing %s (%s MiB) for: %s\n' "$archive" "$(($(stat -c %s "$archive") / 1048576))" "$(echo $stale)" >&2
"${ctr[@]}" images import "$archive" >/dev/null
stale="$(stale_refs)"
[[ -z "$stale" ]] || die "after the import these references still differ from the build: $(echo $stale)"
printf '[images] imported in %ss\n' "$((SECONDS - start))" >&2
