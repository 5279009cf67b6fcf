/** Jest global setup for e2e tests: make sure a cluster is there (see ./cluster.ts). */
import { setupCluster } from './cluster';

export default async function globalSetup(): Promise<void> {
  setupCluster();
}
