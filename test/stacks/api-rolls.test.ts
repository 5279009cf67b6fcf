import { App } from 'cdk8s';
import { Annotations } from '../../lib/graph';
import { findObject, podSpecOf, synthObjects } from '../../lib/testing';
import { ENDPOINT_DRAIN_SECONDS } from '../../constructs/kube/endpoint-drain';
import { referenceCloud } from '../../stacks/reference-cloud';

// GIVEN the reference cloud
const objects = synthObjects(referenceCloud(new App()));
const apis = objects.filter(
  (o) =>
    o.kind === 'Deployment' && (podSpecOf(o).containers as { name: string }[]).some((c) => c.name === 'api'),
);

describe('API Deployments roll without dropping requests', () => {
  test('every API is found', () => {
    // THEN the OpenStack APIs are among them
    expect(apis.map((o) => o.metadata.name)).toEqual(
      expect.arrayContaining(['keystone-api', 'glance-api', 'placement-api', 'nova-api', 'neutron-api']),
    );
  });

  test.each(['keystone-api', 'glance-api', 'placement-api', 'nova-api', 'neutron-api'])(
    '%s: a new pod is ready before an old one goes, and an old one drains before it stops',
    (name) => {
      // WHEN its Deployment is read
      const deployment = findObject(apis, 'Deployment', name);
      const spec = podSpecOf(deployment);
      const api = (spec.containers as Record<string, unknown>[]).find((c) => c.name === 'api');
      // THEN the roll keeps every old pod until a new one is ready (its readiness probe gates it) …
      expect(deployment.spec).toMatchObject({ strategy: { rollingUpdate: { maxUnavailable: 0 } } });
      expect(api?.readinessProbe).toBeDefined();
      // … the old pod keeps serving while its endpoint is withdrawn, then has its full grace period
      expect(api?.lifecycle).toEqual({ preStop: { sleep: { seconds: ENDPOINT_DRAIN_SECONDS } } });
      expect(spec.terminationGracePeriodSeconds).toBe(ENDPOINT_DRAIN_SECONDS + 30);
      // … and a PodDisruptionBudget of the same component holds a drain to one pod at a time
      const pdb = objects.find(
        (o) =>
          o.kind === 'PodDisruptionBudget' &&
          o.metadata.annotations?.[Annotations.COMPONENT] ===
            deployment.metadata.annotations?.[Annotations.COMPONENT],
      );
      expect(pdb?.spec).toMatchObject({ maxUnavailable: 1 });
    },
  );
});
