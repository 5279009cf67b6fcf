/** Jest global setup of the real-node suite: a cluster with a real node (scripts/cluster/up.sh --real). */
import { setupCluster } from '../../e2e/support/cluster';

export default async function globalSetup(): Promise<void> {
  setupCluster({ realNode: true });
}
