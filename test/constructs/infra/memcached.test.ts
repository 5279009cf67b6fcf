import { App } from 'cdk8s';
import { Memcached } from '../../../constructs/infra';
import { Cloud } from '../../../lib/model';
import { findObject, podSpecOf, synthObjects } from '../../../lib/testing';
import { commandOf } from '../support/compute-network-fixture';

interface Container {
  args: string[];
  resources: { requests: Record<string, string>; limits: Record<string, string> };
  readinessProbe: unknown;
  livenessProbe: unknown;
}

function memcachedCloud(props: ConstructorParameters<typeof Memcached>[2] = {}) {
  const cloud = new Cloud(new App(), 'prod', { namespace: 'openstack' });
  const memcached = new Memcached(cloud, 'memcached', props);
  return { cloud, memcached };
}

describe('Memcached', () => {
  test('states its command instead of relying on the image entrypoint', () => {
    // GIVEN
    const { cloud } = memcachedCloud({ memoryMiB: 256 });
    // WHEN
    const sts = findObject(synthObjects(cloud), 'StatefulSet', 'memcached');
    // THEN
    expect(commandOf(sts)).toEqual(['memcached']);
    expect((podSpecOf(sts).containers as Container[])[0].args).toEqual(['-m', '256', '-p', '11211']);
  });

  test('clients list every server by its stable name through its one headless Service (no peers Service)', () => {
    // GIVEN / WHEN
    const { cloud, memcached } = memcachedCloud({ replicas: 3 });
    const objects = synthObjects(cloud);
    // THEN
    expect(memcached.servers).toEqual([
      'memcached-0.memcached.openstack.svc:11211',
      'memcached-1.memcached.openstack.svc:11211',
      'memcached-2.memcached.openstack.svc:11211',
    ]);
    expect(objects.filter((o) => o.kind === 'Service').map((o) => o.metadata.name)).toEqual(['memcached']);
    expect((findObject(objects, 'Service', 'memcached').spec as { clusterIP: string }).clusterIP).toBe(
      'None',
    );
  });

  test('memory request and limit follow the item memory, with room for the process', () => {
    // GIVEN / WHEN
    const { cloud } = memcachedCloud({ memoryMiB: 1024 });
    const container = (
      podSpecOf(findObject(synthObjects(cloud), 'StatefulSet', 'memcached')).containers as Container[]
    )[0];
    // THEN
    expect(container.resources).toEqual({
      requests: { cpu: '50m', memory: '1088Mi' },
      limits: { memory: '1152Mi' },
    });
    expect(container.readinessProbe).toEqual({ tcpSocket: { port: 11211 }, periodSeconds: 10 });
    expect(container.livenessProbe).toEqual(container.readinessProbe);
  });

  test('members start in parallel, spread where they can, one at a time in a drain', () => {
    // GIVEN / WHEN
    const objects = synthObjects(memcachedCloud().cloud);
    // THEN
    expect(
      (findObject(objects, 'StatefulSet', 'memcached').spec as { podManagementPolicy: string })
        .podManagementPolicy,
    ).toBe('Parallel');
    // A cache loses hits, not data, with members on one node: preferred spreading is enough
    expect(podSpecOf(findObject(objects, 'StatefulSet', 'memcached'))).toHaveProperty(
      'affinity.podAntiAffinity',
    );
    expect(findObject(objects, 'PodDisruptionBudget', 'memcached').spec).toMatchObject({ maxUnavailable: 1 });
  });

  test('out-of-range replicas and memory are reported together, at the construct boundary, with the construct path', () => {
    // WHEN / THEN
    const build = () => memcachedCloud({ replicas: 0, memoryMiB: 32 });
    expect(build).toThrow(/\[prod\/memcached\] replicas must be between 1 and 16, got 0/);
    expect(build).toThrow(/\[prod\/memcached\] memoryMiB must be between 64 and 65536, got 32/);
  });
});
