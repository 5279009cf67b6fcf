#!/usr/bin/env bash
# CI: the configuration Stackwright renders, checked against the real OpenStack code of the release
# (docs/configuration.md). Synthesises the reference cloud, the minimal control plane and the
# examples, then loads every oslo.config file with the real oslo.config and option definitions and
# builds every API's WSGI application from the /etc its container sees; then runs every
# nova-cell-mapping Job's script with the real nova-manage (check_cell_mapping.py). Prints counts per
# service; fails on any unknown option, type error, deprecated option, API that does not start, cell
# mapped to other URLs than the Job composed, or password on a nova-manage command line.
#
#   check-configs.sh [RELEASE]   (the venv comes from venv.sh; start it early with --background)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
RELEASE="${1:-2025.1}"
start=$SECONDS

venv="$(bash "$HERE/venv.sh" "$RELEASE" --wait)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
(cd "$ROOT" && node --require ./bin/ts-register.js scripts/openstack/render-clouds.js "$out" "$RELEASE")
"$venv/bin/python" "$HERE/check_configs.py" "$out"/*.k8s.yaml
"$venv/bin/python" "$HERE/check_cell_mapping.py" "$venv" "$out"/*.k8s.yaml
"$venv/bin/python" "$HERE/check_credential_rotation.py" "$venv" "$out"/*.k8s.yaml
echo "configuration check passed in $((SECONDS - start))s"
