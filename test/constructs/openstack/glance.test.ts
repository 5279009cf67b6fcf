import { Glance, GlanceProps } from '../../../constructs/openstack/glance';
import { edgesOf, findObject, podSpecOf, synthObjects } from '../../../lib/testing';
import {
  baseCloud,
  edgesFrom,
  envOf,
  errorOf,
  expectPlacedOn,
  fileOf,
  keyTerms,
  objectsOfService,
  operatorKeys,
  termsOf,
} from '../support/compute-network-fixture';

function glanceCloud(props: Partial<GlanceProps> = {}) {
  const base = baseCloud();
  const glance = new Glance(base.cloud, 'glance', {
    keystone: base.keystone,
    database: base.database,
    cache: base.cache,
    ...props,
  });
  return { ...base, glance };
}

describe('Glance', () => {
  // GIVEN a cloud with Glance on its default PVC store, without notifications
  const { cloud } = glanceCloud();
  // WHEN
  const objects = synthObjects(cloud);

  test('matches the snapshot', () => {
    // THEN
    expect(objectsOfService(objects, 'glance')).toMatchSnapshot();
  });

  test('the API runs on the image API key or the any-API group, non-root', () => {
    // THEN
    const api = findObject(objects, 'Deployment', 'glance-api');
    expectPlacedOn(api, ['image.yaook.cloud/api', 'any.yaook.cloud/api']);
    expect((podSpecOf(api).securityContext as { runAsNonRoot: boolean }).runAsNonRoot).toBe(true);
  });

  test.each(['glance-db-init', 'glance-db-sync', 'glance-ks-register', 'glance-storage-init'])(
    'Job %s runs on the Glance operator key',
    (name) => {
      // THEN
      expect(termsOf(findObject(objects, 'Job', name))).toEqual(keyTerms(operatorKeys('glance')));
    },
  );

  test('glance-api carries the canonical edges: keystone, mariadb, memcached ready; db-sync, registration, storage-init completed', () => {
    // THEN
    expect(edgesOf(findObject(objects, 'Deployment', 'glance-api'))).toEqual(
      edgesFrom('glance-api', {
        ready: ['cache', 'db', 'keystone-api'],
        completed: ['glance-db-sync', 'glance-ks-register', 'glance-storage-init'],
      }),
    );
    expect(edgesOf(findObject(objects, 'Job', 'glance-ks-register'))).toContainEqual({
      from: 'glance-ks-register',
      to: 'keystone-bootstrap',
      kind: 'completed',
    });
  });

  test('the default store is a ReadWriteMany claim owned by storage-init and mounted by the API', () => {
    // THEN
    const claim = findObject(objects, 'PersistentVolumeClaim', 'glance-images');
    expect(claim.metadata.annotations?.['stackwright.io/component']).toBe('glance-storage-init');
    expect((claim.spec as { accessModes: string[] }).accessModes).toEqual(['ReadWriteMany']);
    for (const workload of [
      findObject(objects, 'Deployment', 'glance-api'),
      findObject(objects, 'Job', 'glance-storage-init'),
    ]) {
      expect(podSpecOf(workload).volumes).toContainEqual({
        name: 'images',
        persistentVolumeClaim: { claimName: 'glance-images' },
      });
    }
  });

  test('renders glance-api.conf with the file store and keystone auth, no credential in it', () => {
    // THEN
    const conf = fileOf(objects, 'glance-api-config', 'glance-api.conf');
    expect(conf).toContain('[DEFAULT]\ndebug = false\nenabled_backends = file:file');
    expect(conf).toContain('[file]\nfilesystem_store_datadir = /var/lib/glance/images');
    expect(conf).toContain('[glance_store]\ndefault_backend = file');
    expect(conf).toContain('auth_url = http://keystone-api.openstack.svc:5000/v3');
    expect(conf).toContain('driver = noop');
    expect(conf).not.toMatch(/^(password|connection|transport_url)\s*=/m);
    expect(envOf(findObject(objects, 'Deployment', 'glance-api')).OS_KEYSTONE_AUTHTOKEN__PASSWORD).toEqual({
      secretKeyRef: { name: 'glance-keystone-user', key: 'password' },
    });
  });

  test('a file store mounts the given volume and creates no claim', () => {
    // GIVEN
    const { cloud: fileCloud } = glanceCloud({
      storage: { type: 'file', volume: { name: 'x', nfs: { server: 'nfs.example.com', path: '/glance' } } },
    });
    // WHEN
    const synthesised = synthObjects(fileCloud);
    // THEN
    const glanceClaims = synthesised.filter(
      (o) =>
        o.kind === 'PersistentVolumeClaim' && o.metadata.annotations?.['stackwright.io/service'] === 'glance',
    );
    expect(glanceClaims).toEqual([]);
    expect(podSpecOf(findObject(synthesised, 'Deployment', 'glance-api')).volumes).toContainEqual({
      name: 'images',
      nfs: { server: 'nfs.example.com', path: '/glance' },
    });
  });

  test('a ReadWriteOnce claim with two API pods fails with the path and the fix', () => {
    // GIVEN
    const { cloud: rwo } = glanceCloud({ storage: { type: 'pvc', accessMode: 'ReadWriteOnce' } });
    // WHEN / THEN
    expect(errorOf(() => synthObjects(rwo))).toContain(
      "[prod/glance] storage.accessMode ReadWriteOnce allows one API pod, got replicas 2; use accessMode 'ReadWriteMany' or replicas 1",
    );
  });

  test('an option deprecated for removal fails with the reason and the real help text', () => {
    // GIVEN
    const { cloud: bad } = glanceCloud({ config: { glance_store: { default_store: 'file' } } });
    // WHEN / THEN
    expect(errorOf(() => synthObjects(bad))).toContain(
      '[prod/glance] glance-api.conf: [glance_store] default_store is deprecated for removal (This option is deprecated against ' +
        'new config option ``default_backend`` which acts similar to ``default_store`` config option.); remove the override ' +
        '(type: string value; help: The default scheme to use for storing images.)',
    );
  });

  test('a bracketed list and a dict are written as oslo.config parses them', () => {
    // GIVEN
    const { cloud: withPlugins } = glanceCloud({
      config: { image_import_opts: { image_import_plugins: ['image_conversion', 'image_decompression'] } },
    });
    // WHEN
    const conf = fileOf(synthObjects(withPlugins), 'glance-api-config', 'glance-api.conf');
    // THEN
    expect(conf).toContain(
      "[image_import_opts]\nimage_import_plugins = ['image_conversion', 'image_decompression']\n",
    );
    expect(conf).toContain('enabled_backends = file:file\n');
  });

  test('a Glance without Keystone fails for JavaScript users with the path and the fix', () => {
    // GIVEN
    const base = baseCloud();
    // WHEN / THEN
    expect(
      errorOf(
        () =>
          new Glance(base.cloud, 'glance', {
            database: base.database,
            cache: base.cache,
          } as unknown as GlanceProps),
      ),
    ).toContain('[prod/glance] missing required input "keystone": pass the Keystone service as `keystone`');
  });
});
