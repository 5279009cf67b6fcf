/** Objects no component owns go first, in kind order (lib/runtime/engine/bootstrap.ts), through a rollout. */
import { KubeObject } from '../../../lib/graph';
import { setup } from '../support/rollout-harness';
import { component, configMap, crd, testGraph, namespace, NS } from '../support/manifests';

describe('bootstrap objects', () => {
  test('bootstrap objects go first, in kind order; a failed bootstrap starts no component', async () => {
    // GIVEN: a CRD whose names the API server rejects.
    const { run, cluster } = setup();
    const rejected = crd('widgets');
    cluster.failApply(
      `CustomResourceDefinition/${rejected.metadata.name}`,
      new Error('metadata.name: Invalid value: must be spec.names.plural+"."+spec.group'),
    );
    const clusterRole: KubeObject = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'stackwright-reader' },
      rules: [],
    };
    const graph = testGraph([clusterRole, rejected, namespace()], component('a', {}, configMap('a')));

    // WHEN
    const result = await run(graph);

    // THEN
    expect(cluster.calls('apply-start').map((c) => c.ref)).toEqual([
      `Namespace/${NS}`,
      `CustomResourceDefinition/${rejected.metadata.name}`,
    ]);
    expect(result.bootstrap.state).toBe('failed');
    expect(result.bootstrap.reason).toContain('must be spec.names.plural');
    expect(result.components[0]).toMatchObject({ state: 'not-started' });
    expect(result.components[0].reason).toMatch(/^bootstrap failed: /);
    expect(result.outcome).toBe('failed');
  });
});
