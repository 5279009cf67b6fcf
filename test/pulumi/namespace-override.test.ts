import { overrideNamespace } from '../../lib/pulumi';
import { fixtureManifests, fixtureObject } from './support/fixture-cloud';

describe('overrideNamespace', () => {
  test('moves namespaced objects, renames the Namespace and rewrites ServiceAccount subjects', () => {
    // GIVEN
    const objects = [
      ...fixtureManifests(),
      fixtureObject('rbac.authorization.k8s.io/v1', 'ClusterRoleBinding', 'reader', {
        body: {
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'stackwright-reader' },
          subjects: [
            { kind: 'ServiceAccount', name: 'keystone-api', namespace: 'openstack' },
            { kind: 'ServiceAccount', name: 'monitor', namespace: 'monitoring' },
          ],
        },
      }),
    ];

    // WHEN
    const moved = overrideNamespace(objects, 'cloud-b');

    // THEN
    expect(moved.find((o) => o.kind === 'Namespace')?.metadata.name).toBe('cloud-b');
    expect(new Set(moved.map((o) => o.metadata.namespace))).toEqual(new Set(['cloud-b', undefined]));
    expect(moved.find((o) => o.kind === 'ClusterRoleBinding')?.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'keystone-api', namespace: 'cloud-b' },
      { kind: 'ServiceAccount', name: 'monitor', namespace: 'monitoring' },
    ]);
    expect(objects.find((o) => o.kind === 'Namespace')?.metadata.name).toBe('openstack');
  });

  test('refuses to merge several namespaces', () => {
    // GIVEN
    const objects = [
      fixtureObject('v1', 'ConfigMap', 'a', { namespace: 'x' }),
      fixtureObject('v1', 'ConfigMap', 'b', { namespace: 'y' }),
    ];

    // THEN
    expect(() => overrideNamespace(objects, 'z')).toThrow('the manifests span the namespaces x, y');
  });

  test('refuses when a config names the old namespace in a cluster DNS name', () => {
    // GIVEN
    const objects = [
      fixtureObject('v1', 'ConfigMap', 'keystone', {
        namespace: 'openstack',
        body: { data: { 'keystone.conf': '[cache]\nmemcache_servers = memcached.openstack.svc:11211\n' } },
      }),
    ];

    // THEN
    expect(() => overrideNamespace(objects, 'cloud-b')).toThrow(
      'ConfigMap/openstack/keystone names it in a DNS name at .data.keystone.conf',
    );
  });
});
