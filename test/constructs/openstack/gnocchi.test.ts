import { Gnocchi, GnocchiProps } from '../../../constructs/openstack';
import { edgesOf, findObject, podSpecOf, synthObjects } from '../../../lib/testing';
import {
  baseCloud,
  commandOf,
  edgesFrom,
  envOf,
  expectPlacedOn,
  fileOf,
  objectsOfService,
  operatorKeys,
} from '../support/compute-network-fixture';

function gnocchiCloud(overrides: Partial<GnocchiProps> = {}) {
  const { cloud, database, cache, keystone } = baseCloud();
  new Gnocchi(cloud, 'gnocchi', { keystone, database, cache, ...overrides });
  return cloud;
}

const ceph = {
  monitors: ['10.0.0.1'],
  user: 'gnocchi',
  keyring: { secretName: 'ceph-gnocchi', key: 'keyring' },
};

describe('Gnocchi', () => {
  // GIVEN a cloud with Gnocchi on its default file storage
  // WHEN it is synthesised
  const objects = synthObjects(gnocchiCloud());

  test('matches the snapshot', () => {
    // THEN
    expect(objectsOfService(objects, 'gnocchi')).toMatchSnapshot();
  });

  test.each([
    ['Deployment', 'gnocchi-api', ['gnocchi.yaook.cloud/api', 'any.yaook.cloud/api']],
    ['Deployment', 'gnocchi-metricd', ['gnocchi.yaook.cloud/metricd']],
    ['Job', 'gnocchi-storage-init', operatorKeys('gnocchi')],
    ['Job', 'gnocchi-db-sync', operatorKeys('gnocchi')],
  ])('%s %s runs on its seed keys and tolerates them', (kind, name, keys) => {
    // THEN
    expectPlacedOn(findObject(objects, kind, name), keys);
  });

  test('carries the canonical edges: Keystone, the indexer, storage-init and memcached', () => {
    // THEN
    const expected = (from: string) =>
      edgesFrom(from, {
        ready: ['cache', 'db', 'keystone-api'],
        completed: ['gnocchi-db-sync', 'gnocchi-ks-register', 'gnocchi-storage-init'],
      });
    expect(edgesOf(findObject(objects, 'Deployment', 'gnocchi-api'))).toEqual(expected('gnocchi-api'));
    expect(edgesOf(findObject(objects, 'Deployment', 'gnocchi-metricd'))).toEqual(
      expected('gnocchi-metricd'),
    );
  });

  test('db-sync migrates the indexer only and storage-init the storage only', () => {
    // THEN
    const command = (name: string) => commandOf(findObject(objects, 'Job', name));
    expect(command('gnocchi-db-sync')).toEqual(['gnocchi-upgrade', '--skip-storage', '--skip-incoming']);
    expect(command('gnocchi-storage-init')).toEqual(['gnocchi-upgrade', '--skip-index']);
    expect(envOf(findObject(objects, 'Job', 'gnocchi-db-sync')).OS_INDEXER__URL).toBe(
      'mysql+pymysql://gnocchi:$(DB_PASSWORD)@db.openstack.svc:3306/gnocchi?charset=utf8',
    );
    expect(envOf(findObject(objects, 'Job', 'gnocchi-storage-init'))).toEqual({
      OS_STORAGE__DRIVER: 'file',
      OS_STORAGE__FILE_BASEPATH: '/var/lib/gnocchi',
    });
  });

  test('file storage is one ReadWriteMany claim, owned by storage-init and mounted by API and metricd', () => {
    // THEN
    const claim = findObject(objects, 'PersistentVolumeClaim', 'gnocchi-storage');
    expect(claim.metadata.annotations?.['stackwright.io/component']).toBe('gnocchi-storage-init');
    expect(claim.spec).toEqual({
      accessModes: ['ReadWriteMany'],
      resources: { requests: { storage: '10Gi' } },
    });
    for (const name of ['gnocchi-api', 'gnocchi-metricd']) {
      expect(podSpecOf(findObject(objects, 'Deployment', name)).volumes).toContainEqual({
        name: 'storage',
        persistentVolumeClaim: { claimName: 'gnocchi-storage' },
      });
    }
  });

  test('renders gnocchi.conf with keystone auth, coordination over memcached and no credential', () => {
    // THEN
    const conf = fileOf(objects, 'gnocchi-metricd-config', 'gnocchi.conf');
    expect(conf).toContain('[DEFAULT]\ncoordination_url = memcached://cache-0.cache.openstack.svc:11211\n');
    expect(conf).toContain('[api]\nauth_mode = keystone\n');
    expect(conf).toContain('[metricd]\nworkers = 2\n');
    expect(conf).toContain('[storage]\ndriver = file\nfile_basepath = /var/lib/gnocchi\n');
    expect(conf).not.toMatch(/url = mysql|password =/);
  });

  test('Ceph storage renders the pool and mounts the keyring from the user Secret', () => {
    // GIVEN
    const onCeph = synthObjects(gnocchiCloud({ storage: { type: 'ceph', pool: 'metrics', ceph } }));
    // THEN
    expect(fileOf(onCeph, 'gnocchi-api-config', 'gnocchi.conf')).toContain(
      '[storage]\nceph_conffile = /etc/gnocchi/ceph.conf\nceph_keyring = /etc/ceph/ceph.client.gnocchi.keyring\nceph_pool = metrics\nceph_username = gnocchi\ndriver = ceph\n',
    );
    expect(fileOf(onCeph, 'gnocchi-storage-init-ceph', 'ceph.conf')).toContain('mon_host = 10.0.0.1\n');
    expect(
      onCeph.some(
        (o) =>
          o.kind === 'PersistentVolumeClaim' &&
          o.metadata.annotations?.['stackwright.io/service'] === 'gnocchi',
      ),
    ).toBe(false);
    expect(podSpecOf(findObject(onCeph, 'Deployment', 'gnocchi-metricd')).volumes).toContainEqual({
      name: 'ceph-keyring',
      secret: {
        secretName: 'ceph-gnocchi',
        items: [{ key: 'keyring', path: 'ceph.client.gnocchi.keyring' }],
      },
    });
  });

  test('bad input fails with the construct path and the fix', () => {
    // WHEN / THEN
    expect(() => synthObjects(gnocchiCloud({ config: { metricd: { worker: 4 } } }))).toThrow(
      '[prod/gnocchi] gnocchi.conf: unknown option "worker" in [metricd] (not defined by the service, or removed); [metricd] has workers, cleanup_batch_size, greedy, metric_cleanup_delay, metric_inactive_after',
    );
    expect(() =>
      synthObjects(
        gnocchiCloud({ storage: { type: 'ceph', pool: 'metrics', ceph: { ...ceph, monitors: [] } } }),
      ),
    ).toThrow(/\[prod\/gnocchi\] storage.ceph.monitors is empty; list the Ceph monitors/);
  });

  test('a Gnocchi without a cache fails for JavaScript users with the path and what to pass', () => {
    // GIVEN
    const { cloud, database, keystone } = baseCloud();
    const props = { keystone, database } as unknown as GnocchiProps;
    // WHEN / THEN
    expect(() => new Gnocchi(cloud, 'gnocchi', props)).toThrow(
      '[prod/gnocchi] missing required input "cache": pass a Memcached or externalCache(...) as `cache`',
    );
  });
});
