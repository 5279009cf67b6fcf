/** A component's CRDs are applied and established before its custom resources (lib/runtime/engine/apply-order.ts), through a rollout. */
import { KubeObject } from '../../../lib/graph';
import { setup } from '../support/rollout-harness';
import { component, crd, testGraph, NS } from '../support/manifests';

describe("a component's apply order", () => {
  test('applies a component’s CRD first and waits until it is established before its custom resources', async () => {
    // GIVEN
    const { run, cluster, recorder } = setup();
    const widget: KubeObject = {
      apiVersion: 'example.stackwright.io/v1',
      kind: 'Widget',
      metadata: { name: 'w', namespace: NS },
      spec: { size: 1 },
    };
    const graph = testGraph(
      component('widgets', {}, widget, crd('widgets', 'example.stackwright.io', 'Widget')),
    );

    // WHEN
    const result = await run(graph);

    // THEN
    expect(result.components[0].state).toBe('verified');
    expect(cluster.calls('apply').map((c) => c.ref)).toEqual([
      `CustomResourceDefinition/widgets.example.stackwright.io`,
      `Widget/${NS}/w`,
    ]);
    const established = recorder.events.findIndex(
      (e) =>
        e.type === 'object-status' && e.ref.startsWith('CustomResourceDefinition') && e.status === 'Current',
    );
    const crApplied = recorder.events.findIndex(
      (e) => e.type === 'object-applied' && e.ref === `Widget/${NS}/w`,
    );
    expect(established).toBeLessThan(crApplied);
  });
});
