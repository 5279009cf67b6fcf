#!/usr/bin/env bash
# CI lane run beside the real node: the end-to-end suites on kwok nodes (`npm run test:e2e`, real
# Flux and kapp included) and then Pulumi's (`npm run test:e2e:pulumi`, the real CLI and provider),
# on a second local cluster of their own. Its run dir and ports differ from the default cluster's
# (the real node's), so both control planes run side by side; down.sh of either leaves the other
# alone. Waits for the control plane, the GitOps binaries and then the Pulumi binaries (all started
# with --background earlier); stops its cluster at the end, whatever happened.
#
# Why a lane: these suites wait on controllers most of the time, the real node's on guests and
# rollouts; run one after the other they were the cold CI's critical path (docs/test-cluster.md,
# "The whole .ci/run cold").
#
# With STACKWRIGHT_KWOK_E2E_DONE set to a path, the lane creates that file when its kwok suite has
# ended (passed or not, or the lane stopped before): .ci/run starts the real node's suites then, so
# the two suites that fail when starved never share the cores.
set -euo pipefail
cd "$(dirname "$0")/../.."

export STACKWRIGHT_CLUSTER_RUN="${STACKWRIGHT_KWOK_LANE_RUN:-$HOME/.cache/stackwright/run-kwok-lane}" # (.ci/run stops it too)
export STACKWRIGHT_CLUSTER_API_PORT=26443
export STACKWRIGHT_CLUSTER_ETCD_PORT=22379
export STACKWRIGHT_CLUSTER_ETCD_PEER_PORT=22380
export STACKWRIGHT_CLUSTER_KCM_PORT=20257
export STACKWRIGHT_CLUSTER_SCHEDULER_PORT=20259
export STACKWRIGHT_CLUSTER_KWOK_PORT=20247

lane() { printf '\n=== kwok lane: %s (%ss since the lane started)\n' "$1" "$SECONDS"; }
kwok_suite_ended() { [ -z "${STACKWRIGHT_KWOK_E2E_DONE:-}" ] || touch "$STACKWRIGHT_KWOK_E2E_DONE"; }
trap 'kwok_suite_ended; bash scripts/cluster/down.sh --keep-logs >/dev/null 2>&1 || true' EXIT

lane "waiting for the control plane and the GitOps binaries"
bash scripts/cluster/build.sh --wait control-plane
bash scripts/gitops/build.sh --wait
# One cluster for both suites: the suites' global setup finds it running and leaves it up.
bash scripts/cluster/up.sh >/dev/null

lane "end-to-end tests against a live control plane (kwok nodes, real Flux and kapp)"
npm run test:e2e -- --testPathIgnorePatterns 'pulumi\.e2e'
kwok_suite_ended

lane "waiting for the Pulumi binaries"
bash scripts/pulumi/build.sh --wait

lane "end-to-end: pulumi up with the real CLI and provider"
npm run test:e2e:pulumi

lane "done"
