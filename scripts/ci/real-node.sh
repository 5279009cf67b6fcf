#!/usr/bin/env bash
# CI step: the real-node e2e suite. Needs root. Expects `scripts/cluster/build.sh --background` and
# `scripts/images/build.sh --background` to have been started earlier (the cold builds are the long
# pole); waits for both, then runs `npm run test:e2e:real`, whose global setup starts the cluster
# with the real node (`up.sh --real`), imports the images and, at the end, stops it again
# (down.sh restores the host). It uses the default run dir; the kwok suites beside it run on a
# second cluster (scripts/ci/kwok-lane.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."

bash scripts/cluster/node-deps.sh
bash scripts/cluster/build.sh --wait
bash scripts/images/build.sh --wait
npm run test:e2e:real
