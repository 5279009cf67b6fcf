/** Jest global teardown for e2e tests: stop the local cluster if the setup started it. */
import { teardownCluster } from './cluster';

export default async function globalTeardown(): Promise<void> {
  teardownCluster();
}
