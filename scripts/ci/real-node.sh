#!/usr/bin/env bash
# CI step: the real-node e2e suites. Needs root. Expects `scripts/cluster/build.sh --background` and
# `scripts/images/build.sh --background` to have been started earlier (the cold builds are the long
# pole); waits for both, then runs `npm run test:e2e:real` (or, given suite names, each of
# `npm run test:e2e:compute` / `test:e2e:upgrade` in turn), whose global setup starts the cluster
# with the real node (`up.sh --real`), imports the images and, at the end, stops it again
# (down.sh restores the host) unless it found the cluster running. It uses the default run dir;
# the kwok suites beside it run on a second cluster (scripts/ci/kwok-lane.sh).
#
#   bash scripts/ci/real-node.sh [compute|upgrade]...
set -euo pipefail
cd "$(dirname "$0")/../.."

for suite in "$@"; do
  [[ "$suite" == compute || "$suite" == upgrade ]] ||
    { echo "real-node.sh: unknown suite '$suite': give compute, upgrade or nothing (both)" >&2 && exit 2; }
done

bash scripts/cluster/node-deps.sh
bash scripts/cluster/build.sh --wait
bash scripts/images/build.sh --wait
if (($# == 0)); then
  npm run test:e2e:real
fi
for suite in "$@"; do
  npm run "test:e2e:$suite"
done
