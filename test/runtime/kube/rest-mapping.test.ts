import {
  mappingKey,
  parseAggregatedDiscovery,
  parseResourceList,
  resourcePath,
  splitApiVersion,
} from '../../../lib/runtime/kube/rest-mapping';

const AGGREGATED_APIS = {
  kind: 'APIGroupDiscoveryList',
  apiVersion: 'apidiscovery.k8s.io/v2',
  items: [
    {
      metadata: { name: 'apps' },
      versions: [
        {
          version: 'v1',
          resources: [
            {
              resource: 'deployments',
              responseKind: { group: 'apps', version: 'v1', kind: 'Deployment' },
              scope: 'Namespaced',
              subresources: [{ subresource: 'status', responseKind: { kind: 'Deployment' } }],
            },
          ],
        },
      ],
    },
    {
      metadata: { name: 'rbac.authorization.k8s.io' },
      versions: [
        {
          version: 'v1',
          resources: [
            {
              resource: 'clusterroles',
              responseKind: { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'ClusterRole' },
              scope: 'Cluster',
            },
          ],
        },
      ],
    },
  ],
};

describe('parseAggregatedDiscovery', () => {
  test('maps kinds to plural resources with their scope', () => {
    // GIVEN an aggregated discovery document for /apis
    // WHEN it is parsed
    const mappings = parseAggregatedDiscovery(AGGREGATED_APIS);

    // THEN every top-level resource is mapped, subresources are not
    expect(mappings).toEqual([
      { group: 'apps', version: 'v1', kind: 'Deployment', resource: 'deployments', namespaced: true },
      {
        group: 'rbac.authorization.k8s.io',
        version: 'v1',
        kind: 'ClusterRole',
        resource: 'clusterroles',
        namespaced: false,
      },
    ]);
  });

  test('reads the core group, which has no name', () => {
    // GIVEN the /api document
    const core = {
      kind: 'APIGroupDiscoveryList',
      items: [
        {
          metadata: {},
          versions: [
            {
              version: 'v1',
              resources: [{ resource: 'namespaces', responseKind: { kind: 'Namespace' }, scope: 'Cluster' }],
            },
          ],
        },
      ],
    };

    // WHEN / THEN
    expect(parseAggregatedDiscovery(core)).toEqual([
      { group: '', version: 'v1', kind: 'Namespace', resource: 'namespaces', namespaced: false },
    ]);
  });

  test('returns undefined for a legacy APIGroupList, so the caller falls back', () => {
    expect(parseAggregatedDiscovery({ kind: 'APIGroupList', groups: [] })).toBeUndefined();
  });
});

describe('parseResourceList', () => {
  test('skips subresources and keeps the namespaced flag', () => {
    // GIVEN a legacy /api/v1 resource list
    const doc = {
      kind: 'APIResourceList',
      groupVersion: 'v1',
      resources: [
        { name: 'pods', kind: 'Pod', namespaced: true },
        { name: 'pods/status', kind: 'Pod', namespaced: true },
        { name: 'nodes', kind: 'Node', namespaced: false },
      ],
    };

    // WHEN / THEN
    expect(parseResourceList(doc)).toEqual([
      { group: '', version: 'v1', kind: 'Pod', resource: 'pods', namespaced: true },
      { group: '', version: 'v1', kind: 'Node', resource: 'nodes', namespaced: false },
    ]);
  });
});

describe('resourcePath', () => {
  const deployments = {
    group: 'apps',
    version: 'v1',
    kind: 'Deployment',
    resource: 'deployments',
    namespaced: true,
  };
  const namespaces = {
    group: '',
    version: 'v1',
    kind: 'Namespace',
    resource: 'namespaces',
    namespaced: false,
  };

  test.each([
    [deployments, 'openstack', 'keystone', '/apis/apps/v1/namespaces/openstack/deployments/keystone'],
    [deployments, 'openstack', undefined, '/apis/apps/v1/namespaces/openstack/deployments'],
    [deployments, undefined, undefined, '/apis/apps/v1/deployments'],
    [namespaces, 'ignored', 'openstack', '/api/v1/namespaces/openstack'],
  ])('%o in %s named %s -> %s', (mapping, namespace, name, expected) => {
    expect(resourcePath(mapping, namespace, name)).toBe(expected);
  });

  test('splits and keys api versions', () => {
    expect(splitApiVersion('v1')).toEqual({ group: '', version: 'v1' });
    expect(splitApiVersion('apps/v1')).toEqual({ group: 'apps', version: 'v1' });
    expect(mappingKey('apps/v1', 'Deployment')).toBe('apps/v1/Deployment');
  });
});
