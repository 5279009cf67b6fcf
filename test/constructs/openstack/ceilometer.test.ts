import { parse } from 'yaml';
import { Ceilometer, CeilometerProps, Gnocchi } from '../../../constructs/openstack';
import { edgesOf, findObject, podSpecOf, synthObjects } from '../../../lib/testing';
import { TinyService } from '../../support/tiny-service';
import { placement, SchedulingKey } from '../../../lib/scheduling';
import {
  baseCloud,
  edgesFrom,
  envOf,
  expectPlacedOn,
  fileOf,
  objectsOfService,
  operatorKeys,
} from '../support/compute-network-fixture';

/**
 * A cloud with Gnocchi, a stand-in for Nova with two nova-compute components (as two per-node
 * configuration templates would give), and Ceilometer with `overrides` (which may use the fixture).
 */
function ceilometerCloud(
  overrides: (fixture: ReturnType<typeof baseCloud>) => Partial<CeilometerProps> = () => ({}),
) {
  const fixture = baseCloud();
  const { cloud, database, messaging, cache, keystone } = fixture;
  const gnocchi = new Gnocchi(cloud, 'gnocchi', { keystone, database, cache });
  const nova = new TinyService(
    cloud,
    'nova',
    ['compute-default', 'compute-gpu'],
    placement(SchedulingKey.COMPUTE_HYPERVISOR),
  );
  new Ceilometer(cloud, 'ceilometer', {
    keystone,
    messaging,
    gnocchi,
    nova: { compute: [nova.parts['compute-default'], nova.parts['compute-gpu']] },
    ...overrides(fixture),
  });
  return cloud;
}

describe('Ceilometer', () => {
  // GIVEN a cloud with Gnocchi, a Nova with two compute DaemonSets, and Ceilometer
  // WHEN it is synthesised
  const objects = synthObjects(ceilometerCloud());

  test('matches the snapshot', () => {
    // THEN
    expect(objectsOfService(objects, 'ceilometer')).toMatchSnapshot();
  });

  test.each([
    [
      'Deployment',
      'ceilometer-central',
      ['ceilometer.yaook.cloud/central', 'ceilometer.yaook.cloud/ceilometer-any-service'],
    ],
    [
      'Deployment',
      'ceilometer-notification',
      ['ceilometer.yaook.cloud/notification', 'ceilometer.yaook.cloud/ceilometer-any-service'],
    ],
    ['Job', 'ceilometer-upgrade', operatorKeys('ceilometer')],
    ['Job', 'ceilometer-ks-register', operatorKeys('ceilometer')],
  ])('%s %s runs on its seed key or its group key and tolerates both', (kind, name, keys) => {
    // THEN
    expectPlacedOn(findObject(objects, kind, name), keys);
  });

  test('the compute agent is a DaemonSet on hypervisors that need no OVN maintenance, unprivileged', () => {
    // THEN
    const agent = findObject(objects, 'DaemonSet', 'ceilometer-compute');
    expectPlacedOn(
      agent,
      ['compute.yaook.cloud/hypervisor'],
      [{ key: 'maintenance.yaook.cloud/ovn-maintenance', operator: 'In', values: ['not-required'] }],
    );
    const spec = podSpecOf(agent);
    expect(spec.hostNetwork).toBeUndefined();
    expect(spec.securityContext).toMatchObject({ runAsNonRoot: true });
    expect(spec.volumes).toContainEqual({
      name: 'libvirt-run',
      hostPath: { path: '/run/libvirt', type: 'Directory' },
    });
  });

  test('carries the canonical edges, with a same-node edge to every nova-compute', () => {
    // THEN
    const collector = (from: string) =>
      edgesFrom(from, {
        completed: ['ceilometer-ks-register', 'ceilometer-mq-init', 'ceilometer-upgrade'],
        ready: ['gnocchi-api', 'keystone-api', 'mq'],
      });
    expect(edgesOf(findObject(objects, 'Deployment', 'ceilometer-central'))).toEqual(
      collector('ceilometer-central'),
    );
    expect(edgesOf(findObject(objects, 'Deployment', 'ceilometer-notification'))).toEqual(
      collector('ceilometer-notification'),
    );
    expect(edgesOf(findObject(objects, 'DaemonSet', 'ceilometer-compute'))).toEqual(
      edgesFrom('ceilometer-compute', {
        completed: [
          'agent-secrets-ceilometer-keystone-user',
          'agent-secrets-ceilometer-mq',
          'ceilometer-ks-register',
          'ceilometer-mq-init',
        ],
        ready: ['mq'],
        'same-node': ['nova-compute-default', 'nova-compute-gpu'],
      }),
    );
    expect(edgesOf(findObject(objects, 'Job', 'ceilometer-upgrade'))).toEqual(
      edgesFrom('ceilometer-upgrade', { completed: ['ceilometer-ks-register'], ready: ['gnocchi-api'] }),
    );
  });

  test('registers a service user and no catalogue entry', () => {
    // THEN
    const env = envOf(findObject(objects, 'Job', 'ceilometer-ks-register'));
    expect(env).toMatchObject({
      USER_NAME: { secretKeyRef: { name: 'ceilometer-keystone-user', key: 'username' } },
      SERVICE_PASSWORD: { secretKeyRef: { name: 'ceilometer-keystone-user', key: 'password' } },
    });
    expect(Object.keys(env)).not.toContain('ENDPOINT_URL');
  });

  test('renders ceilometer.conf, polling and the Gnocchi pipeline', () => {
    // THEN
    const conf = fileOf(objects, 'ceilometer-central-config', 'ceilometer.conf');
    expect(conf).toContain(
      '[service_credentials]\nauth_type = password\nauth_url = http://keystone-api.openstack.svc:5000/v3\ninterface = internalURL\nproject_domain_name = Default\nproject_name = service\nregion_name = RegionOne\nuser_domain_name = Default\n',
    );
    expect(conf).toContain('[compute]\ninstance_discovery_method = libvirt_metadata\n');
    expect(conf).not.toContain('[coordination]');
    expect(parse(fileOf(objects, 'ceilometer-central-config', 'polling.yaml'))).toEqual({
      sources: [{ name: 'all_pollsters', interval: 300, meters: ['*'] }],
    });
    expect(parse(fileOf(objects, 'ceilometer-notification-config', 'pipeline.yaml')).sinks).toEqual([
      { name: 'meter_sink', publishers: ['gnocchi://?archive_policy=low'] },
    ]);
    expect(
      envOf(findObject(objects, 'Deployment', 'ceilometer-central')).OS_SERVICE_CREDENTIALS__PASSWORD,
    ).toEqual({
      secretKeyRef: { name: 'ceilometer-keystone-user', key: 'password' },
    });
  });

  test('several central agents coordinate through memcached', () => {
    // GIVEN
    const ha = synthObjects(ceilometerCloud(({ cache }) => ({ cache, centralReplicas: 2 })));
    // THEN
    expect(fileOf(ha, 'ceilometer-central-config', 'ceilometer.conf')).toContain(
      '[coordination]\nbackend_url = memcached://cache-0.cache.openstack.svc:11211\n',
    );
    expect(edgesOf(findObject(ha, 'Deployment', 'ceilometer-central'))).toContainEqual({
      from: 'ceilometer-central',
      to: 'cache',
      kind: 'ready',
    });
    expect((findObject(ha, 'Deployment', 'ceilometer-central').spec as { replicas: number }).replicas).toBe(
      2,
    );
  });

  test('without Nova there is no compute agent', () => {
    // GIVEN
    const without = synthObjects(ceilometerCloud(() => ({ nova: undefined })));
    // THEN
    expect(without.some((o) => o.metadata.name === 'ceilometer-compute')).toBe(false);
  });

  test('bad input fails with the construct path and the fix', () => {
    // WHEN / THEN
    expect(() => synthObjects(ceilometerCloud(() => ({ centralReplicas: 2 })))).toThrow(
      /\[prod\/ceilometer\] centralReplicas is 2 but there is no coordination backend; pass `cache` \(a Memcached\) or use one central agent/,
    );
    expect(() => synthObjects(ceilometerCloud(() => ({ config: { polling: { interval: 60 } } })))).toThrow(
      '[prod/ceilometer] ceilometer.conf: unknown option "interval" in [polling] (not defined by the service, or removed); [polling] has identity_name_discovery, ignore_disabled_projects, batch_size, cfg_file, enable_notifications',
    );
  });

  test('a Ceilometer without Gnocchi fails for JavaScript users with the path and what to pass', () => {
    // GIVEN
    const { cloud, messaging, keystone } = baseCloud();
    const props = { keystone, messaging } as unknown as CeilometerProps;
    // WHEN / THEN
    expect(() => new Ceilometer(cloud, 'ceilometer', props)).toThrow(
      '[prod/ceilometer] missing required input "gnocchi": pass the Gnocchi service (where samples are published) as `gnocchi`',
    );
  });
});
