#!/usr/bin/env bash
# CI step: the real-node e2e suites. Needs root. Expects `scripts/cluster/build.sh --background` and
# `scripts/images/build.sh --background` to have been started earlier (the cold builds are the long
# pole); waits for both, then runs `npm run test:e2e:real` (or, given suite names, each of
# `npm run test:e2e:compute` / `test:e2e:upgrade` in turn), whose global setup starts the cluster
# with the real node (`up.sh --real`), imports the images and, at the end, stops it again
# (down.sh restores the host) unless it found the cluster running. It uses the default run dir;
# the kwok suites beside it run on a second cluster (scripts/ci/kwok-lane.sh).
#
# `up` instead of a suite starts that cluster and imports the images, and runs nothing: .ci/run
# does it while the kwok suite still runs, so the suites after it find both done.
#
#   bash scripts/ci/real-node.sh [compute|upgrade]...
#   bash scripts/ci/real-node.sh up
set -euo pipefail
cd "$(dirname "$0")/../.."

for suite in "$@"; do
  [[ "$suite" == compute || "$suite" == upgrade || ("$suite" == up && $# == 1) ]] ||
    { echo "real-node.sh: unknown suite '$suite': give compute, upgrade or nothing (both), or up alone" >&2 && exit 2; }
done

bash scripts/cluster/node-deps.sh
bash scripts/cluster/build.sh --wait
bash scripts/images/build.sh --wait
if [[ "${1:-}" == up ]]; then
  bash scripts/cluster/up.sh --real >/dev/null
  # shellcheck disable=SC1091 # written by up.sh
  source "${STACKWRIGHT_CLUSTER_RUN:-$HOME/.cache/stackwright/run}/cluster.env"
  exec bash scripts/images/import.sh "$STACKWRIGHT_CLUSTER_CONTAINERD_SOCKET"
fi
if (($# == 0)); then
  npm run test:e2e:real
fi
for suite in "$@"; do
  npm run "test:e2e:$suite"
done
