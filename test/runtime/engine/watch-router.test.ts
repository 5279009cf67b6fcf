/** One watch per (apiVersion, kind, namespace), shared by every component (lib/runtime/engine/watch-router.ts), through a rollout. */
import { setup, keystoneGraph } from '../support/rollout-harness';
import { NS } from '../support/manifests';

describe('watches', () => {
  test('shares one watch per (apiVersion, kind, namespace) across components', async () => {
    // GIVEN
    const { run, cluster } = setup();

    // WHEN
    await run(keystoneGraph());

    // THEN
    expect(cluster.watchSubscriptions.get(`apps/v1/Deployment/${NS}`)).toBe(1);
    expect(cluster.watchSubscriptions.get(`batch/v1/Job/${NS}`)).toBe(1);
    expect(cluster.watchSubscriptions.get('v1/Namespace/*')).toBe(1);
    expect(cluster.openWatches).toBe(0);
  });
});
