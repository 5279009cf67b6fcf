import { Placement, PlacementProps } from '../../../constructs/openstack/placement';
import { edgesOf, findObject, synthObjects } from '../../../lib/testing';
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
  scriptOf,
  termsOf,
} from '../support/compute-network-fixture';

function placementCloud(props: Partial<PlacementProps> = {}) {
  const base = baseCloud();
  new Placement(base.cloud, 'placement', {
    keystone: base.keystone,
    database: base.database,
    cache: base.cache,
    ...props,
  });
  return base.cloud;
}

describe('Placement', () => {
  // GIVEN / WHEN
  const objects = synthObjects(placementCloud());

  test('matches the snapshot', () => {
    // THEN
    expect(objectsOfService(objects, 'placement')).toMatchSnapshot();
  });

  test('the API runs on the placement API key or the any-API group, two spread replicas behind a PDB', () => {
    // THEN
    const api = findObject(objects, 'Deployment', 'placement-api');
    expectPlacedOn(api, ['placement.yaook.cloud/api', 'any.yaook.cloud/api']);
    expect((api.spec as { replicas: number }).replicas).toBe(2);
    expect(findObject(objects, 'PodDisruptionBudget', 'placement-api')).toBeDefined();
    expect(scriptOf(api)).toContain('exec uwsgi --http-socket :8778');
  });

  test.each(['placement-db-init', 'placement-db-sync', 'placement-ks-register'])(
    'Job %s runs on the Nova operator key (Yaook runs Placement with Nova)',
    (name) => {
      // THEN
      expect(termsOf(findObject(objects, 'Job', name))).toEqual(keyTerms(operatorKeys('nova')));
    },
  );

  test('placement-api carries the canonical edges', () => {
    // THEN
    expect(edgesOf(findObject(objects, 'Deployment', 'placement-api'))).toEqual(
      edgesFrom('placement-api', {
        ready: ['cache', 'db', 'keystone-api'],
        completed: ['placement-db-sync', 'placement-ks-register'],
      }),
    );
  });

  test('the connection goes to [placement_database], from the Secret', () => {
    // THEN
    const env = envOf(findObject(objects, 'Deployment', 'placement-api'));
    expect(env.OS_PLACEMENT_DATABASE__CONNECTION).toBe(
      'mysql+pymysql://placement:$(DB_PASSWORD)@db.openstack.svc:3306/placement?charset=utf8',
    );
    expect(env.DB_PASSWORD).toEqual({ secretKeyRef: { name: 'placement-db', key: 'password' } });
    expect(
      envOf(findObject(objects, 'Job', 'placement-db-sync')).OS_PLACEMENT_DATABASE__CONNECTION,
    ).toBeDefined();
    const conf = fileOf(objects, 'placement-api-config', 'placement.conf');
    expect(conf).toContain('[placement_database]\nsync_on_startup = false');
    expect(conf).not.toContain('username =');
    expect(envOf(findObject(objects, 'Deployment', 'placement-api')).OS_KEYSTONE_AUTHTOKEN__USERNAME).toEqual(
      {
        secretKeyRef: { name: 'placement-keystone-user', key: 'username' },
      },
    );
  });

  test('an option in the wrong section fails with the path and the section it belongs to', () => {
    // GIVEN / WHEN / THEN
    expect(
      errorOf(() => synthObjects(placementCloud({ config: { database: { connection_recycle_time: 5 } } }))),
    ).toContain(
      '[prod/placement] placement.conf: unknown option "connection_recycle_time" in [database]; it is an option of [placement_database]',
    );
  });

  test('a Placement without a database fails for JavaScript users with the path', () => {
    // GIVEN
    const base = baseCloud();
    // WHEN / THEN
    expect(
      errorOf(
        () =>
          new Placement(base.cloud, 'placement', {
            keystone: base.keystone,
            cache: base.cache,
          } as unknown as PlacementProps),
      ),
    ).toContain('[prod/placement] missing required input "database"');
  });
});
