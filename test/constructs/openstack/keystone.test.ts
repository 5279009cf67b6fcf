import { App } from 'cdk8s';
import { MariaDB, Memcached, RabbitMQ } from '../../../constructs/infra';
import { Keystone } from '../../../constructs/openstack';
import { Cloud } from '../../../lib/model';
import { edgesOf, findObject, podSpecOf, synthObjects } from '../../../lib/testing';

function keystoneCloud(config?: ConstructorParameters<typeof Keystone>[2]['config']) {
  const app = new App();
  const cloud = new Cloud(app, 'prod', { namespace: 'openstack' });
  const database = new MariaDB(cloud, 'db');
  const cache = new Memcached(cloud, 'cache');
  const messaging = new RabbitMQ(cloud, 'mq');
  new Keystone(cloud, 'keystone', { database, cache, messaging, config });
  return cloud;
}

describe('Keystone', () => {
  const objects = synthObjects(keystoneCloud());

  test('matches the snapshot', () => {
    expect(
      objects.filter((o) => o.metadata.annotations?.['stackwright.io/service'] === 'keystone'),
    ).toMatchSnapshot();
  });

  test('the API runs on the identity key or the any-API group and tolerates both', () => {
    const spec = podSpecOf(findObject(objects, 'Deployment', 'keystone-api')) as {
      affinity: {
        nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: unknown[] } };
      };
      tolerations: unknown[];
    };
    expect(
      spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms,
    ).toEqual([
      { matchExpressions: [{ key: 'identity.yaook.cloud/api', operator: 'Exists' }] },
      { matchExpressions: [{ key: 'any.yaook.cloud/api', operator: 'Exists' }] },
    ]);
    expect(spec.tolerations).toEqual([
      { effect: 'NoSchedule', key: 'identity.yaook.cloud/api', operator: 'Exists' },
      { effect: 'NoExecute', key: 'identity.yaook.cloud/api', operator: 'Exists' },
      { effect: 'NoSchedule', key: 'any.yaook.cloud/api', operator: 'Exists' },
      { effect: 'NoExecute', key: 'any.yaook.cloud/api', operator: 'Exists' },
    ]);
  });

  test.each(['keystone-db-sync', 'keystone-db-init', 'keystone-bootstrap', 'keystone-fernet-setup'])(
    'Job %s is scheduled like a Yaook operator Job',
    (name) => {
      const spec = podSpecOf(findObject(objects, 'Job', name)) as {
        affinity: {
          nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: unknown[] } };
        };
      };
      expect(
        spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms,
      ).toEqual([
        { matchExpressions: [{ key: 'operator.yaook.cloud/keystone', operator: 'Exists' }] },
        { matchExpressions: [{ key: 'operator.yaook.cloud/any', operator: 'Exists' }] },
      ]);
    },
  );

  test('carries the canonical edges', () => {
    expect(edgesOf(findObject(objects, 'Deployment', 'keystone-api'))).toEqual([
      { from: 'keystone-api', to: 'cache', kind: 'ready' },
      { from: 'keystone-api', to: 'db', kind: 'ready' },
      { from: 'keystone-api', to: 'keystone-db-sync', kind: 'completed' },
      { from: 'keystone-api', to: 'mq', kind: 'runtime' },
    ]);
    expect(edgesOf(findObject(objects, 'Job', 'keystone-db-sync'))).toEqual([
      { from: 'keystone-db-sync', to: 'keystone-credential-setup', kind: 'completed' },
      { from: 'keystone-db-sync', to: 'keystone-db-init', kind: 'completed' },
      { from: 'keystone-db-sync', to: 'keystone-fernet-setup', kind: 'completed' },
    ]);
    expect(edgesOf(findObject(objects, 'Job', 'keystone-db-init'))).toEqual([
      { from: 'keystone-db-init', to: 'db', kind: 'ready' },
      { from: 'keystone-db-init', to: 'keystone-db-credentials', kind: 'completed' },
    ]);
    expect(edgesOf(findObject(objects, 'Job', 'keystone-bootstrap'))).toEqual([
      { from: 'keystone-bootstrap', to: 'keystone-admin-credentials', kind: 'completed' },
      { from: 'keystone-bootstrap', to: 'keystone-api', kind: 'ready' },
    ]);
  });

  test('renders keystone.conf from typed options, with no credential in it', () => {
    const conf = (findObject(objects, 'ConfigMap', 'keystone-api-config').data as Record<string, string>)[
      'keystone.conf'
    ];
    expect(conf).toContain('[token]\nexpiration = 3600\nprovider = fernet');
    expect(conf).toContain('memcache_servers = cache-0.cache:11211,cache-1.cache:11211');
    expect(conf.startsWith('[DEFAULT]\n')).toBe(true);
    expect(conf).not.toMatch(/connection|password/);
  });

  test('the database connection reaches the pod from a Secret, never as a literal', () => {
    const container = (
      podSpecOf(findObject(objects, 'Deployment', 'keystone-api')).containers as { env: unknown[] }[]
    )[0];
    expect(container.env).toEqual([
      { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { key: 'password', name: 'keystone-db' } } },
      {
        name: 'OS_DATABASE__CONNECTION',
        value: 'mysql+pymysql://keystone:$(DB_PASSWORD)@db:3306/keystone?charset=utf8',
      },
    ]);
  });

  test('user overrides are merged and rendered', () => {
    const conf = (
      findObject(
        synthObjects(keystoneCloud({ token: { expiration: 7200 } })),
        'ConfigMap',
        'keystone-api-config',
      ).data as Record<string, string>
    )['keystone.conf'];
    expect(conf).toContain('expiration = 7200');
  });

  test('an unknown oslo option fails with the construct path and the known options', () => {
    expect(() => synthObjects(keystoneCloud({ token: { expiraton: 7200 } }))).toThrow(
      /\[prod\/keystone\] keystone.conf: unknown option "expiraton" in \[token\]; known options: caching, expiration, provider/,
    );
  });

  test('a credential cannot be given as plain text', () => {
    expect(() =>
      synthObjects(keystoneCloud({ database: { connection: 'mysql://root:secret@db/keystone' } })),
    ).toThrow(/keystone.conf: \[database\] connection carries a credential and cannot be set as plain text/);
  });
});
