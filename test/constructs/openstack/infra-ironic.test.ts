import { InfraIronic, InfraIronicProps } from '../../../constructs/openstack';
import { edgesOf, findObject, synthObjects } from '../../../lib/testing';
import { TinyService } from '../../support/tiny-service';
import {
  baseCloud,
  edgesFrom,
  envOf,
  expectPlacedOn,
  fileOf,
  objectsOfService,
  operatorKeys,
  scriptOf,
} from '../support/compute-network-fixture';

/** Ironic with stand-ins for Glance, Neutron and Swift (`withServices`), or on its own. */
function ironicCloud(overrides: Partial<InfraIronicProps> = {}, withServices = true) {
  const { cloud, database, messaging, cache, keystone } = baseCloud();
  const services = withServices
    ? {
        glance: new TinyService(cloud, 'glance', ['api']),
        neutron: new TinyService(cloud, 'neutron', ['api']),
        swift: new TinyService(cloud, 'swift', ['proxy']),
      }
    : {};
  new InfraIronic(cloud, 'ironic', { keystone, database, messaging, cache, ...services, ...overrides });
  return cloud;
}

describe('InfraIronic', () => {
  // GIVEN a cloud with Ironic next to Glance, Neutron and Swift
  // WHEN it is synthesised
  const objects = synthObjects(
    ironicCloud({
      networks: {
        provisioning: { name: 'provisioning', physicalNetwork: 'physnet-bm', cidr: '10.20.0.0/24' },
        cleaning: { name: 'cleaning' },
      },
      conductor: {
        workersPoolSize: 3,
        periodicMaxWorkers: 1,
        periodicTaskSpacing: { syncPowerState: 120, checkProvisionState: 30, syncLocalState: 0 },
      },
    }),
  );

  test('matches the snapshot', () => {
    // THEN
    expect(objectsOfService(objects, 'ironic')).toMatchSnapshot();
  });

  test.each([
    ['Deployment', 'ironic-api', ['infra-bare-metal.yaook.cloud/api', 'any.yaook.cloud/api']],
    [
      'StatefulSet',
      'ironic-conductor',
      ['infra-bare-metal.yaook.cloud/conductor', 'infra-bare-metal.yaook.cloud/ironic-any-service'],
    ],
    ['Job', 'ironic-db-sync', operatorKeys('infra-ironic')],
    ['Job', 'ironic-network-setup', operatorKeys('infra-ironic')],
  ])('%s %s runs on its seed key or its group key and tolerates both', (kind, name, keys) => {
    // THEN
    expectPlacedOn(findObject(objects, kind, name), keys);
  });

  test('carries the canonical edges: glance ready, neutron through the networks Job, swift at run time', () => {
    // THEN
    const shared = {
      ready: ['db', 'glance-api', 'keystone-api', 'mq'],
      completed: ['ironic-db-sync', 'ironic-ks-register', 'ironic-mq-init', 'ironic-network-setup'],
      runtime: ['swift-proxy'],
    };
    expect(edgesOf(findObject(objects, 'StatefulSet', 'ironic-conductor'))).toEqual(
      edgesFrom('ironic-conductor', shared),
    );
    // AND only the API uses memcached
    expect(edgesOf(findObject(objects, 'Deployment', 'ironic-api'))).toEqual(
      edgesFrom('ironic-api', { ...shared, ready: ['cache', ...shared.ready] }),
    );
    expect(edgesOf(findObject(objects, 'Job', 'ironic-network-setup'))).toEqual(
      edgesFrom('ironic-network-setup', { completed: ['keystone-bootstrap'], ready: ['neutron-api'] }),
    );
  });

  test('the network Job creates the provisioning and cleaning networks idempotently', () => {
    // THEN
    const script = scriptOf(findObject(objects, 'Job', 'ironic-network-setup'));
    expect(script.split('\n')).toEqual([
      'openstack network show provisioning >/dev/null 2>&1 || openstack network create --provider-network-type flat --provider-physical-network physnet-bm provisioning',
      'openstack subnet show provisioning >/dev/null 2>&1 || openstack subnet create --network provisioning --subnet-range 10.20.0.0/24 provisioning',
      'openstack network show cleaning >/dev/null 2>&1 || openstack network create cleaning',
    ]);
  });

  test('renders the conductor options and periodic-task spacing into ironic.conf', () => {
    // THEN
    const conf = fileOf(objects, 'ironic-conductor-config', 'ironic.conf');
    expect(conf).toContain(
      '[conductor]\ncheck_provision_state_interval = 30\nperiodic_max_workers = 1\nsync_local_state_interval = 0\nsync_power_state_interval = 120\nworkers_pool_size = 3\n',
    );
    expect(conf).toContain('default_network_interface = neutron\n');
    expect(conf).toContain('[neutron]\nauth_type = password\n');
    expect(conf).toContain('cleaning_network = cleaning\n');
    expect(conf).toContain('provisioning_network = provisioning\n');
    expect(conf).toContain('[swift]\nauth_type = password\n');
    expect(conf).not.toMatch(/password =/);
  });

  test('conductors are a StatefulSet whose pod name is the conductor host on the hash ring', () => {
    // THEN
    const conductor = findObject(objects, 'StatefulSet', 'ironic-conductor');
    expect((conductor.spec as { serviceName: string; replicas: number }).serviceName).toBe(
      'ironic-conductor',
    );
    expect((conductor.spec as { replicas: number }).replicas).toBe(2);
    expect(findObject(objects, 'Service', 'ironic-conductor').spec).toMatchObject({ clusterIP: 'None' });
    expect(envOf(conductor)).toMatchObject({
      OS_DEFAULT__HOST: { fieldRef: { fieldPath: 'metadata.name' } },
      OS_GLANCE__PASSWORD: { secretKeyRef: { name: 'ironic-keystone-user', key: 'password' } },
      OS_NEUTRON__PASSWORD: { secretKeyRef: { name: 'ironic-keystone-user', key: 'password' } },
    });
  });

  test('defaults: Ironic alone uses the noop network interface and has no network Job', () => {
    // GIVEN
    const alone = synthObjects(ironicCloud({}, false));
    // THEN
    const conf = fileOf(alone, 'ironic-api-config', 'ironic.conf');
    expect(conf).toContain('default_network_interface = noop\n');
    expect(conf).toContain('workers_pool_size = 100\n');
    expect(conf).toContain('sync_power_state_interval = 60\n');
    expect(conf).not.toContain('[neutron]');
    expect(alone.some((o) => o.metadata.name === 'ironic-network-setup')).toBe(false);
  });

  test('a worker pool of 2 fails with the path, the reason from seed 002 and the fix', () => {
    // WHEN / THEN
    expect(() => synthObjects(ironicCloud({ conductor: { workersPoolSize: 2 } }))).toThrow(
      '[prod/ironic] conductor.workersPoolSize must be >= 3, got 2: the conductor runs its periodic-task main loop and its keep-alive thread ' +
        'on the same worker pool as node tasks, so it needs one worker for each plus at least one for the work itself. ' +
        "Set conductor.workersPoolSize to 3 or more (Ironic's default is 100)",
    );
  });

  test('a worker pool of 2 through a raw ironic.conf override fails the same way', () => {
    // WHEN / THEN
    expect(() => synthObjects(ironicCloud({ config: { conductor: { workers_pool_size: 2 } } }))).toThrow(
      /\[prod\/ironic\] ironic.conf: \[conductor\] workers_pool_size must be >= 3, got 2: the conductor runs its periodic-task main loop/,
    );
  });

  test('other bad input fails with the construct path and the fix', () => {
    // WHEN / THEN
    expect(() =>
      synthObjects(ironicCloud({ conductor: { periodicTaskSpacing: { syncPowerState: -5 } } })),
    ).toThrow(
      /\[prod\/ironic\] conductor.periodicTaskSpacing.syncPowerState must be between 0 and 86400, got -5/,
    );
    expect(() => synthObjects(ironicCloud({ config: { conductor: { sync_power_interval: 10 } } }))).toThrow(
      '[prod/ironic] ironic.conf: unknown option "sync_power_interval" in [conductor] (not defined by the service, or removed); [conductor] has sync_power_state_interval, sync_power_state_workers, sync_local_state_interval, service_callback_timeout, soft_power_off_timeout',
    );
    expect(() => synthObjects(ironicCloud({ networks: { provisioning: { name: 'bm' } } }, false))).toThrow(
      /\[prod\/ironic\] networks are created in Neutron, but no `neutron` was given; pass the Neutron service or remove `networks`/,
    );
    expect(() =>
      synthObjects(ironicCloud({ networks: { provisioning: { name: 'bm', cidr: '10.0.0.0/24; reboot' } } })),
    ).toThrow(
      /\[prod\/ironic\] network "bm": cidr "10.0.0.0\/24; reboot" is not an address range like 10.10.0.0\/24/,
    );
  });

  test('an Ironic without Keystone fails for JavaScript users with the path and what to pass', () => {
    // GIVEN
    const { cloud, database, messaging, cache } = baseCloud();
    const props = { database, messaging, cache } as unknown as InfraIronicProps;
    // WHEN / THEN
    expect(() => new InfraIronic(cloud, 'ironic', props)).toThrow(
      '[prod/ironic] missing required input "keystone": pass the Keystone service as `keystone`',
    );
  });
});
