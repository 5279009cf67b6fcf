/**
 * Jest global setup of the real-node suite: a cluster with a real node (scripts/cluster/up.sh
 * --real), then the locally built images imported into its containerd (scripts/images/import.sh
 * skips what is already there; containerd keeps its images across restarts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { setupCluster } from '../../e2e/support/cluster';

const IMPORT_SCRIPT = path.resolve(__dirname, '..', '..', '..', 'scripts', 'images', 'import.sh');

export default async function globalSetup(): Promise<void> {
  setupCluster({ realNode: true });
  const socket = process.env.STACKWRIGHT_CLUSTER_CONTAINERD_SOCKET;
  if (!socket) {
    throw new Error(
      'the cluster has no real node (cluster.env lacks STACKWRIGHT_CLUSTER_CONTAINERD_SOCKET); start it with scripts/cluster/up.sh --real',
    );
  }
  // Images imported by hand (e.g. while scripts/images is being changed): skip the import.
  if (process.env.STACKWRIGHT_E2E_IMPORT_IMAGES === '0') return;
  const res = spawnSync('bash', [IMPORT_SCRIPT, socket], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (!existsSync(IMPORT_SCRIPT) || res.status !== 0) {
    throw new Error(
      `${IMPORT_SCRIPT} ${socket} failed (exit ${res.status}); build the images with scripts/images/build.sh`,
    );
  }
}
