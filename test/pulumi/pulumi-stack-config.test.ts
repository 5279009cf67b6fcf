import { parseStackConfig } from '../../stacks/pulumi-stack-config';

/** The problems `parseStackConfig` reports for `config`, one per line (empty when it accepts it). */
function problemsOf(config: Record<string, string>): string[] {
  try {
    parseStackConfig(config);
    return [];
  } catch (error) {
    return (error as Error).message
      .split('\n')
      .slice(1)
      .map((line) => line.trim());
  }
}

describe('parseStackConfig', () => {
  test('an empty config is the default cloud in namespace openstack', () => {
    // WHEN
    const parsed = parseStackConfig({});

    // THEN
    expect(parsed).toEqual({ cloud: { namespace: 'openstack' } });
  });

  test('cloud options, labels and per-service options become the typed props', () => {
    // GIVEN values as `pulumi config set` stores them: objects as JSON text, `--path` numbers as numbers
    const config = {
      'stackwright:namespace': 'cloud-b',
      'stackwright:release': '2024.2',
      'stackwright:imageRegistry': 'registry.example.org/openstack',
      'stackwright:toolboxImage': 'registry.example.org/kubectl:1.36',
      'stackwright:resourcePrefix': 'b-',
      'stackwright:labels': JSON.stringify({ team: 'infra' }),
      'stackwright:services': JSON.stringify({
        keystone: { replicas: 3, image: 'registry.example.org/keystone:patched' },
        heat: { enabled: false },
        nova: { replicas: '4' },
        ceilometer: { enabled: 'false' },
      }),
      'stackwright:adminPassword': 'not read here',
      'kubernetes:context': 'other namespaces are ignored',
    };

    // WHEN
    const parsed = parseStackConfig(config);

    // THEN
    expect(parsed).toEqual({
      resourcePrefix: 'b-',
      cloud: {
        namespace: 'cloud-b',
        release: '2024.2',
        imageRegistry: 'registry.example.org/openstack',
        toolboxImage: 'registry.example.org/kubectl:1.36',
        labels: { team: 'infra' },
        services: {
          keystone: { replicas: 3, image: 'registry.example.org/keystone:patched' },
          heat: { enabled: false },
          nova: { replicas: 4 },
          ceilometer: { enabled: false },
        },
      },
    });
  });

  test('every problem is reported at once, naming the key and the command that fixes it', () => {
    // GIVEN
    const config = {
      'stackwright:servics': '{}',
      'stackwright:release': ' ',
      'stackwright:labels': JSON.stringify({ team: 7 }),
      'stackwright:services': JSON.stringify({
        keystone: { replicas: 'two', enabled: false },
        glance: { replica: 2 },
        swift: { replicas: 1 },
        heat: { enabled: 'no', image: 'has space:1' },
        ceilometer: { replicas: 2 },
        nova: 3,
        cinder: { replicas: 0 },
        barbican: { replicas: 1.5 },
      }),
    };

    // WHEN
    const problems = problemsOf(config);

    // THEN
    expect(problems).toEqual([
      'stackwright:servics is not an option of this program (known: namespace, release, imageRegistry, toolboxImage, resourcePrefix, labels, services, adminPassword, databasePassword); fix: pulumi config rm stackwright:servics',
      'stackwright:release is empty; fix: pulumi config rm stackwright:release',
      "stackwright:labels.team must be a string, got 7; fix: pulumi config set --path 'stackwright:labels.team' '7' --type string",
      `stackwright:services.keystone.replicas must be a whole number >= 1, got "two"; fix: pulumi config set --path 'stackwright:services.keystone.replicas' 2`,
      "stackwright:services.keystone.enabled: keystone is part of the minimal control plane and cannot be disabled; fix: pulumi config rm --path 'stackwright:services.keystone.enabled'",
      `stackwright:services.glance.replica: glance has no option "replica" (options: replicas, image); fix: pulumi config rm --path 'stackwright:services.glance.replica'`,
      `stackwright:services.swift: the reference cloud has no service "swift" (services: db, mq, memcached, ovsdb, keystone, glance, placement, neutron, nova, cinder, barbican, heat, gnocchi, ceilometer, ironic); fix: pulumi config rm --path 'stackwright:services.swift'`,
      `stackwright:services.heat.enabled must be true or false, got "no"; fix: pulumi config set --path 'stackwright:services.heat.enabled' false`,
      `stackwright:services.heat.image must be an image reference such as registry.example.org/heat:2025.1, got "has space:1"; fix: pulumi config set --path 'stackwright:services.heat.image' <registry>/<name>:<tag>`,
      `stackwright:services.ceilometer.replicas: ceilometer has no option "replicas" (options: enabled, image); fix: pulumi config rm --path 'stackwright:services.ceilometer.replicas'`,
      "stackwright:services.nova must be an object of options (replicas, image), got 3; fix: pulumi config rm --path 'stackwright:services.nova', then pulumi config set --path 'stackwright:services.nova.<option>' <value>",
      "stackwright:services.cinder.replicas must be a whole number >= 1, got 0; fix: pulumi config set --path 'stackwright:services.cinder.replicas' 2",
      "stackwright:services.barbican.replicas must be a whole number >= 1, got 1.5; fix: pulumi config set --path 'stackwright:services.barbican.replicas' 2",
    ]);
  });

  test.each([
    ['stackwright:services', 'heat=false'],
    ['stackwright:labels', '["team"]'],
  ])('%s set as plain text instead of an object says how to set it with --path', (key, value) => {
    // WHEN
    const problems = problemsOf({ [key]: value });

    // THEN
    expect(problems).toEqual([
      `${key} must be an object, got ${JSON.stringify(value)}; fix: pulumi config rm ${key}, then pulumi config set --path '${key}.<name>' <value>`,
    ]);
  });

  test('the message starts with what failed, so Pulumi shows it as the program error', () => {
    // THEN
    expect(() =>
      parseStackConfig({ 'stackwright:services': JSON.stringify({ db: { replicas: 'x' } }) }),
    ).toThrow(/^invalid stack config:\n {2}stackwright:services\.db\.replicas must be a whole number/);
  });
});
