import { Cinder, CinderProps } from '../../../constructs/openstack';
import { edgesOf, findObject, podSpecOf, synthObjects } from '../../../lib/testing';
import {
  baseCloud,
  edgesFrom,
  envOf,
  expectPlacedOn,
  fileOf,
  keyTerms,
  objectsOfService,
  operatorKeys,
  termsOf,
} from '../support/compute-network-fixture';

const ceph = {
  monitors: ['10.0.0.1:6789', '10.0.0.2:6789'],
  user: 'cinder',
  keyring: { secretName: 'ceph-cinder', key: 'keyring' },
};

function cinderCloud(overrides: Partial<CinderProps> = {}) {
  const { cloud, database, messaging, cache, keystone } = baseCloud();
  new Cinder(cloud, 'cinder', {
    keystone,
    database,
    messaging,
    cache,
    volumeBackends: [
      {
        type: 'rbd',
        name: 'ceph',
        pool: 'volumes',
        ceph,
        libvirtSecretUuid: '457eb676-33da-42ec-9a8c-9293d545c337',
      },
      {
        type: 'lvm',
        name: 'lvm',
        volumeGroup: 'cinder-volumes',
        nodeSelector: { 'example.com/storage': 'lvm' },
      },
    ],
    backup: { type: 'ceph', pool: 'backups', ceph },
    ...overrides,
  });
  return cloud;
}

describe('Cinder', () => {
  // GIVEN a cloud with Cinder on a Ceph and an LVM backend, with Ceph backups
  // WHEN it is synthesised
  const objects = synthObjects(cinderCloud());

  test('matches the snapshot', () => {
    // THEN
    expect(objectsOfService(objects, 'cinder')).toMatchSnapshot();
  });

  test.each([
    ['Deployment', 'cinder-api', ['block-storage.yaook.cloud/api', 'any.yaook.cloud/api']],
    [
      'Deployment',
      'cinder-scheduler',
      ['block-storage.yaook.cloud/cinder-scheduler', 'block-storage.yaook.cloud/cinder-any-service'],
    ],
    [
      'StatefulSet',
      'cinder-volume-ceph',
      ['block-storage.yaook.cloud/cinder-volume', 'block-storage.yaook.cloud/cinder-any-service'],
    ],
    [
      'Deployment',
      'cinder-backup',
      ['block-storage.yaook.cloud/cinder-backup', 'block-storage.yaook.cloud/cinder-any-service'],
    ],
    ['Job', 'cinder-db-sync', operatorKeys('cinder')],
    ['Job', 'cinder-ks-register', operatorKeys('cinder')],
    ['Job', 'cinder-mq-init', operatorKeys('cinder')],
  ])('%s %s runs on its seed key or its group key and tolerates both', (kind, name, keys) => {
    // THEN
    expectPlacedOn(findObject(objects, kind, name), keys);
  });

  test('the LVM volume service is restricted to the node holding the volume group', () => {
    // THEN
    const workload = findObject(objects, 'StatefulSet', 'cinder-volume-lvm');
    expect(termsOf(workload)).toEqual(
      keyTerms(
        ['block-storage.yaook.cloud/cinder-volume', 'block-storage.yaook.cloud/cinder-any-service'],
        [{ key: 'example.com/storage', operator: 'In', values: ['lvm'] }],
      ),
    );
  });

  test('only the LVM volume service is privileged; the Ceph one runs as a non-root user', () => {
    // THEN
    const lvm = podSpecOf(findObject(objects, 'StatefulSet', 'cinder-volume-lvm'));
    const rbd = podSpecOf(findObject(objects, 'StatefulSet', 'cinder-volume-ceph'));
    expect(lvm.hostNetwork).toBe(true);
    expect((lvm.containers as { securityContext: unknown }[])[0].securityContext).toEqual({
      privileged: true,
    });
    expect(rbd.hostNetwork).toBeUndefined();
    expect(rbd.securityContext).toMatchObject({ runAsNonRoot: true });
    expect((rbd.containers as { securityContext: unknown }[])[0].securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
    });
  });

  test('carries the canonical edges', () => {
    // THEN the API and the scheduler wait for Keystone, the database, RabbitMQ and memcached
    const common = {
      ready: ['cache', 'db', 'keystone-api', 'mq'],
      completed: ['cinder-db-sync', 'cinder-mq-init'],
    };
    expect(edgesOf(findObject(objects, 'Deployment', 'cinder-api'))).toEqual(
      edgesFrom('cinder-api', { ...common, completed: [...common.completed, 'cinder-ks-register'] }),
    );
    expect(edgesOf(findObject(objects, 'Deployment', 'cinder-scheduler'))).toEqual(
      edgesFrom('cinder-scheduler', common),
    );
    // AND volume and backup wait for the API
    for (const [kind, name] of [
      ['StatefulSet', 'cinder-volume-ceph'],
      ['Deployment', 'cinder-backup'],
    ]) {
      expect(edgesOf(findObject(objects, kind, name))).toEqual(edgesFrom(name, { ready: ['cinder-api'] }));
    }
    // (the LVM backend, a host agent, also for the copies of its credentials in the agents' namespace)
    expect(edgesOf(findObject(objects, 'StatefulSet', 'cinder-volume-lvm'))).toEqual(
      edgesFrom('cinder-volume-lvm', {
        ready: ['cinder-api'],
        completed: [
          'agent-secrets-cinder-db',
          'agent-secrets-cinder-keystone-user',
          'agent-secrets-cinder-mq',
        ],
      }),
    );
    // AND registration waits for Keystone's bootstrap
    expect(edgesOf(findObject(objects, 'Job', 'cinder-ks-register'))).toEqual(
      edgesFrom('cinder-ks-register', {
        completed: ['cinder-ks-register-credentials', 'keystone-bootstrap'],
      }),
    );
  });

  test('registers the volumev3 endpoint', () => {
    // THEN the registration program gets the catalogue entry from its environment
    expect(envOf(findObject(objects, 'Job', 'cinder-ks-register'))).toMatchObject({
      SERVICE_NAME: 'cinder',
      SERVICE_TYPE: 'volumev3',
      ENDPOINT_URL: 'http://cinder-api.openstack.svc:8776/v3/%(project_id)s',
      USER_NAME: { secretKeyRef: { name: 'cinder-keystone-user', key: 'username' } },
    });
  });

  test('each volume service renders only its own backend', () => {
    // THEN
    const rbd = fileOf(objects, 'cinder-volume-ceph-config', 'cinder.conf');
    expect(rbd).toContain('enabled_backends = ceph\n');
    expect(rbd).toContain(
      [
        '[ceph]',
        'backend_host = cinder-volume-ceph',
        'rbd_ceph_conf = /etc/cinder/ceph.conf',
        'rbd_pool = volumes',
        'rbd_secret_uuid = 457eb676-33da-42ec-9a8c-9293d545c337',
        'rbd_user = cinder',
        'volume_backend_name = ceph',
        'volume_driver = cinder.volume.drivers.rbd.RBDDriver',
      ].join('\n'),
    );
    expect(rbd).not.toContain('[lvm]');
    expect(fileOf(objects, 'cinder-volume-ceph-config', 'ceph.conf')).toBe(
      '[global]\nmon_host = 10.0.0.1:6789,10.0.0.2:6789\nkeyring = /etc/ceph/ceph.client.cinder.keyring\n',
    );
    const lvm = fileOf(objects, 'cinder-volume-lvm-config', 'cinder.conf');
    expect(lvm).toContain(
      '[lvm]\nbackend_host = cinder-volume-lvm\ntarget_helper = lioadm\ntarget_protocol = iscsi\nvolume_backend_name = lvm\n',
    );
    expect(envOf(findObject(objects, 'StatefulSet', 'cinder-volume-lvm')).OS_LVM__TARGET_IP_ADDRESS).toEqual({
      fieldRef: { fieldPath: 'status.hostIP' },
    });
  });

  test('the API config has Keystone auth and backups, and no credential', () => {
    // THEN
    const conf = fileOf(objects, 'cinder-api-config', 'cinder.conf');
    expect(conf).toContain('backup_driver = cinder.backup.drivers.ceph.CephBackupDriver');
    expect(conf).toContain('backup_ceph_pool = backups');
    expect(conf).toContain(
      '[keystone_authtoken]\nauth_type = password\nauth_url = http://keystone-api.openstack.svc:5000/v3',
    );
    expect(conf).not.toContain('enabled_backends');
    expect(conf).not.toMatch(/username =|password =|connection =|transport_url =/);
    expect(envOf(findObject(objects, 'Deployment', 'cinder-api'))).toMatchObject({
      OS_DEFAULT__TRANSPORT_URL: 'rabbit://cinder:$(MQ_PASSWORD)@mq.openstack.svc:5672/cinder',
      OS_KEYSTONE_AUTHTOKEN__USERNAME: { secretKeyRef: { name: 'cinder-keystone-user', key: 'username' } },
      OS_KEYSTONE_AUTHTOKEN__PASSWORD: { secretKeyRef: { name: 'cinder-keystone-user', key: 'password' } },
    });
  });

  test('the keyring is mounted from the user Secret, never rendered', () => {
    // THEN
    const spec = podSpecOf(findObject(objects, 'StatefulSet', 'cinder-volume-ceph'));
    expect(spec.volumes).toContainEqual({
      name: 'ceph-keyring',
      secret: { secretName: 'ceph-cinder', items: [{ key: 'keyring', path: 'ceph.client.cinder.keyring' }] },
    });
  });

  test('backend sections of user overrides go to their volume service', () => {
    // GIVEN
    const overridden = synthObjects(
      cinderCloud({ config: { ceph: { rbd_max_clone_depth: 3 }, DEFAULT: { debug: true } } }),
    );
    // THEN
    expect(fileOf(overridden, 'cinder-volume-ceph-config', 'cinder.conf')).toContain(
      'rbd_max_clone_depth = 3',
    );
    expect(fileOf(overridden, 'cinder-api-config', 'cinder.conf')).not.toContain('rbd_max_clone_depth');
    expect(fileOf(overridden, 'cinder-api-config', 'cinder.conf')).toContain('debug = true');
  });

  test('an unknown oslo option fails with the construct path and the closest known options', () => {
    // WHEN / THEN
    expect(() => synthObjects(cinderCloud({ config: { DEFAULT: { enabled_backend: ['ceph'] } } }))).toThrow(
      '[prod/cinder] cinder.conf: unknown option "enabled_backend" in [DEFAULT] (not defined by the service, or removed); [DEFAULT] has enabled_backends, enable_force_upload, enable_new_services, enable_unsupported_driver, enforce_multipath_for_image_xfer',
    );
  });

  test('a backend without its node selector, a duplicate name and no backend at all are errors with the fix', () => {
    // WHEN / THEN
    expect(() =>
      synthObjects(
        cinderCloud({
          volumeBackends: [
            { type: 'lvm', name: 'lvm', volumeGroup: 'vg', nodeSelector: {} },
            { type: 'rbd', name: 'lvm', pool: 'volumes', ceph },
          ],
        }),
      ),
    ).toThrow(
      /\[prod\/cinder\] volumeBackends\[0\].nodeSelector is empty; LVM volumes live on one node's disks[\s\S]*\[prod\/cinder\] volumeBackends\[1\].name "lvm" is used twice/,
    );
    expect(() => synthObjects(cinderCloud({ volumeBackends: [] }))).toThrow(
      /\[prod\/cinder\] volumeBackends is empty; add at least one/,
    );
  });

  test('a Ceph client is checked at the boundary, before its ceph.conf is rendered', () => {
    expect(() =>
      cinderCloud({
        volumeBackends: [
          { type: 'rbd', name: 'ceph', pool: 'volumes', ceph: { ...ceph, user: 'client.cinder' } },
        ],
      }),
    ).toThrow(
      /\[prod\/cinder\] volumeBackends\[0\].ceph.user "client.cinder" is not a cephx user name; give it without the "client." prefix/,
    );
  });

  test('a Cinder without Keystone fails for JavaScript users with the path and what to pass', () => {
    // GIVEN props as a JavaScript caller could write them
    const { cloud, database, messaging, cache } = baseCloud();
    const props = { database, messaging, cache, volumeBackends: [] } as unknown as CinderProps;
    // WHEN / THEN
    expect(() => new Cinder(cloud, 'cinder', props)).toThrow(
      '[prod/cinder] missing required input "keystone": pass the Keystone service as `keystone`',
    );
  });
});
