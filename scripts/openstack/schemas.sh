#!/usr/bin/env bash
# Regenerates the option schemas of one release (constructs/openstack/schemas/<release>/*.json)
# from the services' own option definitions, in the release's venv (venv.sh). One command per
# release: `bash scripts/openstack/schemas.sh 2025.2` once python/openstack-2025.2.lock exists.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
RELEASE="${1:-2025.1}"

venv="$(bash "$HERE/venv.sh" "$RELEASE")"
out="$ROOT/constructs/openstack/schemas/$RELEASE"
mkdir -p "$out"
"$venv/bin/python" "$HERE/option-schemas.py" "$HERE/services.json" "$RELEASE" "$out"
