import * as pulumi from '@pulumi/pulumi';
import { App } from 'cdk8s';
import { graphFromManifests } from '../../lib/graph';
import { COMPONENT_TYPE, dependencyPlan } from '../../lib/pulumi';
import pulumiMain from '../../stacks/pulumi-main';
import { referenceCloud } from '../../stacks/reference-cloud';
import { installRecordingMocks, Registration } from './support/recording-monitor';

let recorded: Awaited<ReturnType<typeof installRecordingMocks>>;

beforeAll(async () => {
  recorded = await installRecordingMocks();
});

/** Runs the program with this stack config and waits for every registration it caused. */
async function runProgram(config: Record<string, string>, secretKeys: string[]) {
  pulumi.runtime.setAllConfig(config, secretKeys);
  const before = recorded.registrations.length;
  const outputs = pulumiMain();
  // Every object, every component and the cloud itself.
  await recorded.registered(before + outputs.objects + outputs.components.length + 1);
  return { outputs, registrations: recorded.registrations.slice(before) };
}

/** `stringData` as the engine receives it: whether it is marked secret, and its value. */
function stringDataOf(registration: Registration | undefined): { secret: boolean; value: unknown } {
  const raw = registration?.inputs.stringData;
  return { secret: pulumi.runtime.isRpcSecret(raw), value: pulumi.runtime.unwrapRpcSecret(raw) };
}

describe('stacks/pulumi-main', () => {
  test('deploys every object of the reference cloud with its type, name and parent', async () => {
    // GIVEN the plan of the reference cloud built the way `cdk8s synth` builds it
    const plan = dependencyPlan(graphFromManifests(referenceCloud(new App(), 'openstack').toJson()));

    // WHEN
    const { outputs, registrations } = await runProgram({ 'stackwright:adminPassword': 'admin-secret' }, [
      'stackwright:adminPassword',
    ]);

    // THEN the program adds exactly one object, the admin credentials, to the cloud's own
    const byUrn = new Map(registrations.map((r) => [r.urn, r]));
    const objects = registrations.filter((r) => r.type.startsWith('kubernetes:'));
    expect(objects.map((r) => r.name).sort()).toEqual(
      [
        ...plan.objects.map((o) => o.logicalName),
        `Secret:openstack/${outputs.adminCredentialsSecret}`,
      ].sort(),
    );
    for (const planned of plan.objects) {
      const registration = objects.find((r) => r.name === planned.logicalName);
      const parent = byUrn.get(registration?.parent ?? '');
      expect([planned.logicalName, registration?.type, parent?.name]).toEqual([
        planned.logicalName,
        planned.typeToken,
        planned.parent ?? 'openstack',
      ]);
    }
    expect(
      registrations
        .filter((r) => r.type === COMPONENT_TYPE)
        .map((r) => r.name)
        .sort(),
    ).toEqual(plan.components.map((c) => c.name).sort());
    expect(outputs.components).toEqual(plan.components.map((c) => c.name));
  });

  test('credentials from stack config become Kubernetes Secrets with secret values', async () => {
    // WHEN
    const { outputs, registrations } = await runProgram(
      { 'stackwright:adminPassword': 'admin-secret', 'stackwright:databasePassword': 'db-secret' },
      ['stackwright:adminPassword', 'stackwright:databasePassword'],
    );

    // THEN the values reach the Secrets as Pulumi secrets (the serialised request marks them)
    const admin = registrations.find((r) => r.name === `Secret:openstack/${outputs.adminCredentialsSecret}`);
    const database = registrations.find((r) => r.name === 'Secret:openstack/db-credentials');
    expect(stringDataOf(admin)).toEqual({ secret: true, value: { password: 'admin-secret' } });
    expect(stringDataOf(database)).toEqual({ secret: true, value: { password: 'db-secret' } });
    expect(admin?.additionalSecretOutputs).toEqual(expect.arrayContaining(['data', 'stringData']));
  });

  test('without a database password the database credentials stay generated in the cluster', async () => {
    // WHEN
    const { registrations } = await runProgram({ 'stackwright:adminPassword': 'admin-secret' }, [
      'stackwright:adminPassword',
    ]);

    // THEN
    expect(registrations.some((r) => r.name === 'Secret:openstack/db-credentials')).toBe(false);
    expect(
      registrations.some((r) =>
        /^db-credentials:Job:openstack\/db-credentials-2025-1-[0-9a-f]{8}$/.test(r.name),
      ),
    ).toBe(true);
  });

  test('cloud options come from stack config', async () => {
    // WHEN
    const { outputs, registrations } = await runProgram(
      {
        'stackwright:adminPassword': 'admin-secret',
        'stackwright:namespace': 'cloud-b',
        'stackwright:imageRegistry': 'registry.example.org/openstack',
        'stackwright:release': '2025.1',
        'stackwright:labels': JSON.stringify({ team: 'infra' }),
      },
      ['stackwright:adminPassword'],
    );

    // THEN
    expect(outputs.namespace).toBe('cloud-b');
    const deployment = registrations.find((r) => r.name === 'keystone-api:Deployment:cloud-b/keystone-api');
    expect(deployment?.inputs).toMatchObject({
      metadata: { namespace: 'cloud-b', labels: { team: 'infra' } },
      spec: {
        template: {
          spec: {
            containers: [
              expect.objectContaining({ image: 'registry.example.org/openstack/keystone:2025.1' }),
            ],
          },
        },
      },
    });
  });

  test('per-service options from stack config reach the registered objects', async () => {
    // WHEN
    const { outputs, registrations } = await runProgram(
      {
        'stackwright:adminPassword': 'admin-secret',
        'stackwright:services': JSON.stringify({
          memcached: { image: 'registry.example.org/memcached:1.6.39' },
          heat: { enabled: false },
        }),
      },
      ['stackwright:adminPassword'],
    );

    // THEN
    const memcached = registrations.find((r) => r.name === 'memcached:StatefulSet:openstack/memcached');
    expect(memcached?.inputs).toMatchObject({
      spec: {
        template: {
          spec: { containers: [expect.objectContaining({ image: 'registry.example.org/memcached:1.6.39' })] },
        },
      },
    });
    expect(outputs.components.filter((name) => name.startsWith('heat'))).toEqual([]);
  });

  test('an invalid stack config stops the program before anything is registered', () => {
    // GIVEN
    pulumi.runtime.setAllConfig(
      {
        'stackwright:adminPassword': 'admin-secret',
        'stackwright:services': JSON.stringify({ db: { replicas: 'three' } }),
      },
      ['stackwright:adminPassword'],
    );
    const before = recorded.registrations.length;

    // THEN
    expect(() => pulumiMain()).toThrow(
      `stackwright:services.db.replicas must be a whole number >= 1, got "three"; fix: pulumi config set --path 'stackwright:services.db.replicas' 2`,
    );
    expect(recorded.registrations.length).toBe(before);
  });

  test('a missing admin password stops the program before anything is registered', () => {
    // GIVEN
    pulumi.runtime.setAllConfig({}, []);
    const before = recorded.registrations.length;

    // THEN
    expect(() => pulumiMain()).toThrow(/stackwright:adminPassword/);
    expect(recorded.registrations.length).toBe(before);
  });

  test('the admin password is never a plain output', async () => {
    // WHEN
    const { outputs } = await runProgram({ 'stackwright:adminPassword': 'admin-secret' }, [
      'stackwright:adminPassword',
    ]);

    // THEN
    expect(JSON.stringify(outputs)).not.toContain('admin-secret');
  });
});
