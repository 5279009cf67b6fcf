import { placeCredentials, withCredentialValues } from '../../lib/pulumi';
import { fixtureManifests, fixtureObject } from './support/fixture-cloud';

describe('placeCredentials', () => {
  test('finds Secrets the manifests contain and adds the missing ones first', () => {
    // GIVEN
    const objects = fixtureManifests();

    // WHEN
    const placed = placeCredentials(objects, ['keystone-api', 'db-root', 'openstack/registry-pull']);

    // THEN
    expect(placed.targets).toEqual([
      { key: 'keystone-api', namespace: 'openstack', name: 'keystone-api', added: false },
      { key: 'db-root', namespace: 'openstack', name: 'db-root', added: true },
      { key: 'openstack/registry-pull', namespace: 'openstack', name: 'registry-pull', added: false },
    ]);
    expect(placed.objects[0]).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'db-root', namespace: 'openstack' },
      type: 'Opaque',
    });
    expect(placed.objects).toHaveLength(objects.length + 1);
  });

  test('asks for a namespace when a bare name is ambiguous', () => {
    // GIVEN
    const objects = [
      fixtureObject('v1', 'ConfigMap', 'a', { namespace: 'x' }),
      fixtureObject('v1', 'ConfigMap', 'b', { namespace: 'y' }),
    ];

    // THEN
    expect(() => placeCredentials(objects, ['admin'])).toThrow(
      'credential "admin": cannot tell the cloud\'s namespace from the manifests (none, or several of the same size); write it as "<namespace>/admin"',
    );
  });
});

test("puts a bare name in the cloud's control plane namespace, not the node agents'", () => {
  // GIVEN manifests creating two namespaces, most objects in the control plane's
  const objects = [
    fixtureObject('v1', 'Namespace', 'cp'),
    fixtureObject('v1', 'Namespace', 'cp-agents'),
    fixtureObject('v1', 'ConfigMap', 'a', { namespace: 'cp' }),
    fixtureObject('v1', 'ConfigMap', 'b', { namespace: 'cp' }),
    fixtureObject('v1', 'ConfigMap', 'c', { namespace: 'cp-agents' }),
  ];

  // THEN
  expect(placeCredentials(objects, ['admin']).targets).toEqual([
    { key: 'admin', namespace: 'cp', name: 'admin', added: true },
  ]);
});

describe('withCredentialValues', () => {
  test('credential keys go to stringData, wrapped, and leave data', () => {
    // GIVEN
    const secret = fixtureObject('v1', 'Secret', 'db', {
      namespace: 'x',
      body: { data: { password: 'b2xk', user: 'cm9vdA==' } },
    });

    // WHEN
    const body = withCredentialValues(secret, { password: 'new' }, (v) => `secret(${String(v)})`);

    // THEN
    expect(body.data).toEqual({ user: 'cm9vdA==' });
    expect(body.stringData).toEqual({ password: 'secret(new)' });
  });
});
