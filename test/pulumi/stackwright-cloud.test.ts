import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import { Chart, Testing } from 'cdk8s';
import { k8s as kplus } from 'cdk8s-plus-33';
import { graphFromManifests } from '../../lib/graph';
import { CLOUD_TYPE, COMPONENT_TYPE, dependencyPlan, StackwrightCloud } from '../../lib/pulumi';
import { fixtureManifests } from './support/fixture-cloud';
import { installRecordingMocks, outputValue, Registration } from './support/recording-monitor';

let recorded: Awaited<ReturnType<typeof installRecordingMocks>>;

beforeAll(async () => {
  recorded = await installRecordingMocks();
});

/** Builds a cloud and waits until Pulumi has registered all of it; returns the registrations it caused. */
async function deploy(name: string, args: ConstructorParameters<typeof StackwrightCloud>[1]) {
  const before = recorded.registrations.length;
  const cloud = new StackwrightCloud(name, args);
  await recorded.settle([cloud, ...cloud.components.values(), ...cloud.resources.values()]);
  const registrations = recorded.registrations.slice(before);
  const byUrn = new Map(registrations.map((r) => [r.urn, r]));
  const find = (type: string, logicalName: string): Registration => {
    const found = registrations.find((r) => r.type === type && r.name === logicalName);
    if (!found) throw new Error(`${type} ${logicalName} was not registered`);
    return found;
  };
  return { cloud, registrations, byUrn, find };
}

/** Aliases that rename; the typed classes add their own type-only aliases (older API versions). */
function namedAliases(registration: Registration) {
  return registration.aliases.filter((a) => a.name !== '');
}

describe('StackwrightCloud', () => {
  test('registers every object once, with its type token, logical name and parent', async () => {
    // GIVEN
    const manifests = fixtureManifests();
    const plan = dependencyPlan(graphFromManifests(manifests));

    // WHEN
    const { registrations, byUrn } = await deploy('fixture', { source: manifests });

    // THEN
    const objects = registrations.filter((r) => r.custom);
    expect(objects.map((r) => `${r.type} ${r.name}`).sort()).toEqual(
      plan.objects.map((o) => `${o.typeToken} ${o.logicalName}`).sort(),
    );
    for (const planned of plan.objects) {
      const registration = objects.find((r) => r.name === planned.logicalName);
      const parent = byUrn.get(registration?.parent ?? '');
      expect([planned.logicalName, parent?.type, parent?.name]).toEqual([
        planned.logicalName,
        planned.parent === undefined ? CLOUD_TYPE : COMPONENT_TYPE,
        planned.parent ?? 'fixture',
      ]);
    }
  });

  test('registers one component resource per component, under the cloud', async () => {
    // GIVEN
    const manifests = fixtureManifests();

    // WHEN
    const { registrations, byUrn } = await deploy('fixture', { source: manifests });

    // THEN
    const components = registrations.filter((r) => r.type === COMPONENT_TYPE);
    expect(components.map((c) => c.name).sort()).toEqual(
      graphFromManifests(manifests)
        .components.map((c) => c.name)
        .sort(),
    );
    for (const component of components) expect(byUrn.get(component.parent)?.type).toBe(CLOUD_TYPE);
  });

  test('sends dependsOn to the engine exactly as planned (checked on the register requests)', async () => {
    // GIVEN
    const manifests = fixtureManifests();
    const plan = dependencyPlan(graphFromManifests(manifests));

    // WHEN
    const { registrations } = await deploy('fixture', { source: manifests });

    // THEN
    const urnOf = new Map(registrations.filter((r) => r.custom).map((r) => [r.name, r.urn]));
    for (const planned of plan.objects) {
      const registration = registrations.find((r) => r.custom && r.name === planned.logicalName);
      expect([planned.logicalName, registration?.dependencies]).toEqual([
        planned.logicalName,
        planned.dependsOn.map((d) => urnOf.get(d.name)).sort(),
      ]);
    }
  });

  test('sends the object itself as the inputs', async () => {
    // GIVEN
    const manifests = fixtureManifests();

    // WHEN
    const { find } = await deploy('fixture', { source: manifests });

    // THEN
    const deployment = find(
      'kubernetes:apps/v1:Deployment',
      'keystone-api:Deployment:openstack/keystone-api',
    );
    expect(deployment.inputs).toMatchObject(
      JSON.parse(
        JSON.stringify(manifests.find((o) => o.kind === 'Deployment' && o.metadata.name === 'keystone-api')),
      ),
    );
  });

  test('credentials become Secrets whose values are Pulumi secrets', async () => {
    // GIVEN a value for a Secret the manifests contain and one for a Secret they do not
    const manifests = fixtureManifests();

    // WHEN
    const { cloud, find } = await deploy('fixture', {
      source: manifests,
      credentials: {
        'keystone-api': { password: pulumi.secret('s3cret') },
        'openstack/db-root': { password: 'from-config' },
      },
    });

    // THEN the existing Secret keeps its data and gains the key, as a secret
    const existing = cloud.resources.get('keystone-api:Secret:openstack/keystone-api') as k8s.core.v1.Secret;
    expect(await outputValue(existing.stringData)).toEqual({
      'keystone.conf': '[DEFAULT]\n',
      password: 's3cret',
    });
    expect(await pulumi.isSecret(existing.stringData)).toBe(true);
    // AND the missing Secret is added as a bootstrap object, secret as well, even for a plain value
    const added = cloud.resources.get('Secret:openstack/db-root') as k8s.core.v1.Secret;
    expect(await outputValue(added.stringData)).toEqual({ password: 'from-config' });
    expect(await pulumi.isSecret(added.stringData)).toBe(true);
    expect(find('kubernetes:core/v1:Secret', 'Secret:openstack/db-root').additionalSecretOutputs).toEqual(
      expect.arrayContaining(['data', 'stringData']),
    );
    // AND every component object waits for the added Secret
    expect(
      cloud.plan.objects.find((o) => o.logicalName === 'db:StatefulSet:openstack/db')?.dependsOn,
    ).toContainEqual({
      name: 'Secret:openstack/db-root',
      reason: 'bootstrap',
    });
  });

  test('component aliases reach the engine for the component and each of its objects', async () => {
    // GIVEN memcached used to be called "cache"
    const manifests = fixtureManifests();

    // WHEN
    const { find } = await deploy('fixture', {
      source: manifests,
      componentAliases: { memcached: ['cache'] },
    });

    // THEN
    const component = find(COMPONENT_TYPE, 'memcached');
    expect(component.aliases.map((a) => a.name)).toEqual(['cache']);
    const statefulSet = find('kubernetes:apps/v1:StatefulSet', 'memcached:StatefulSet:openstack/memcached');
    expect(namedAliases(statefulSet)).toEqual([
      {
        name: 'cache:StatefulSet:openstack/memcached',
        parentUrn: expect.stringMatching(/stackwright:index:Component::cache$/),
      },
    ]);
  });

  test('an object alias from the bootstrap objects names the cloud as the former parent', async () => {
    // GIVEN the memcached Service used to be a bootstrap object
    const manifests = fixtureManifests();

    // WHEN
    const { find } = await deploy('fixture', {
      source: manifests,
      aliases: { 'memcached:Service:openstack/memcached': ['Service:openstack/memcached'] },
    });

    // THEN
    const cloud = find(CLOUD_TYPE, 'fixture');
    expect(namedAliases(find('kubernetes:core/v1:Service', 'memcached:Service:openstack/memcached'))).toEqual(
      [{ name: 'Service:openstack/memcached', parentUrn: cloud.urn }],
    );
  });

  test('passes the provider to every object', async () => {
    // GIVEN
    const provider = new k8s.Provider('cluster', { kubeconfig: 'apiVersion: v1\nkind: Config\n' });

    // WHEN
    const { registrations } = await deploy('fixture', { source: fixtureManifests(), provider });

    // THEN
    const providerUrn = await outputValue(provider.urn);
    const objects = registrations.filter((r) => r.type.startsWith('kubernetes:'));
    expect(objects.length).toBe(fixtureManifests().length);
    for (const o of objects)
      expect(o.provider).toMatch(new RegExp(`^${providerUrn.replace(/[$]/g, '\\$')}::`));
  });

  test('a namespace override moves the objects and their names', async () => {
    // GIVEN
    const manifests = fixtureManifests();

    // WHEN
    const { find } = await deploy('fixture', {
      source: manifests,
      namespace: 'cloud-b',
      resourcePrefix: 'b',
    });

    // THEN
    expect(find('kubernetes:core/v1:Namespace', 'b:Namespace:cloud-b').inputs).toMatchObject({
      metadata: { name: 'cloud-b' },
    });
    expect(
      find('kubernetes:apps/v1:Deployment', 'b:keystone-api:Deployment:cloud-b/keystone-api').inputs,
    ).toMatchObject({
      metadata: { namespace: 'cloud-b' },
    });
  });

  test('a cdk8s chart is validated before anything is registered', () => {
    // GIVEN a chart whose construct reports a problem
    const chart = new Chart(Testing.app(), 'broken');
    const config = new kplus.KubeConfigMap(chart, 'config', { metadata: { name: 'config' } });
    config.node.addValidation({ validate: () => ['replicas must be between 1 and 9, got 0'] });
    const before = recorded.registrations.length;

    // THEN
    expect(() => new StackwrightCloud('broken', { source: chart })).toThrow(
      'the cloud is not valid (1 problem):\n[broken/config] replicas must be between 1 and 9, got 0',
    );
    expect(recorded.registrations.length).toBe(before);
  });

  test('a cdk8s chart is read through toJson()', async () => {
    // GIVEN
    const chart = new Chart(Testing.app(), 'plain');
    new kplus.KubeConfigMap(chart, 'config', { metadata: { name: 'settings', namespace: 'default' } });

    // WHEN
    const { find } = await deploy('plain', { source: chart });

    // THEN the object has no component annotation, so it is a bootstrap object under the cloud
    expect(find('kubernetes:core/v1:ConfigMap', 'ConfigMap:default/settings').inputs).toMatchObject({
      metadata: { name: 'settings' },
    });
  });
});
