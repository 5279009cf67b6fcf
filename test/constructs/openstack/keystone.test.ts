import { KeystoneProps } from '../../../constructs/openstack';
import { edgesOf, findObject, podSpecOf, synthObjects } from '../../../lib/testing';
import {
  baseCloud,
  commandOf,
  edgesFrom,
  fileOf,
  keyTerms,
  objectsOfService,
  operatorKeys,
  termsOf,
} from '../support/compute-network-fixture';

function keystoneCloud(config?: KeystoneProps['config']) {
  return baseCloud({ config }).cloud;
}

describe('Keystone', () => {
  const objects = synthObjects(keystoneCloud());

  test('matches the snapshot', () => {
    expect(objectsOfService(objects, 'keystone')).toMatchSnapshot();
  });

  test('the API runs on the identity key or the any-API group and tolerates both', () => {
    const api = findObject(objects, 'Deployment', 'keystone-api');
    expect(termsOf(api)).toEqual(keyTerms(['identity.yaook.cloud/api', 'any.yaook.cloud/api']));
    // the tolerations in full: no value or tolerationSeconds besides key, operator and effect
    expect(podSpecOf(api).tolerations).toEqual([
      { effect: 'NoSchedule', key: 'identity.yaook.cloud/api', operator: 'Exists' },
      { effect: 'NoExecute', key: 'identity.yaook.cloud/api', operator: 'Exists' },
      { effect: 'NoSchedule', key: 'any.yaook.cloud/api', operator: 'Exists' },
      { effect: 'NoExecute', key: 'any.yaook.cloud/api', operator: 'Exists' },
    ]);
  });

  test.each(['keystone-db-sync', 'keystone-db-init', 'keystone-bootstrap', 'keystone-fernet-setup'])(
    'Job %s is scheduled like a Yaook operator Job',
    (name) => {
      expect(termsOf(findObject(objects, 'Job', name))).toEqual(keyTerms(operatorKeys('keystone')));
    },
  );

  test('carries the canonical edges', () => {
    expect(edgesOf(findObject(objects, 'Deployment', 'keystone-api'))).toEqual(
      edgesFrom('keystone-api', { ready: ['cache', 'db'], completed: ['keystone-db-sync'] }),
    );
    expect(edgesOf(findObject(objects, 'Job', 'keystone-db-sync'))).toEqual(
      edgesFrom('keystone-db-sync', {
        completed: ['keystone-credential-setup', 'keystone-db-init', 'keystone-fernet-setup'],
      }),
    );
    expect(edgesOf(findObject(objects, 'Job', 'keystone-db-init'))).toEqual(
      edgesFrom('keystone-db-init', { ready: ['db'], completed: ['keystone-db-credentials'] }),
    );
    expect(edgesOf(findObject(objects, 'Job', 'keystone-bootstrap'))).toEqual(
      edgesFrom('keystone-bootstrap', { completed: ['keystone-admin-credentials'], ready: ['keystone-api'] }),
    );
  });

  test('the API states its command: keystone-wsgi-public under uWSGI, whatever the image entrypoint', () => {
    // THEN
    expect(commandOf(findObject(objects, 'Deployment', 'keystone-api'))).toEqual([
      '/bin/sh',
      '-ec',
      'exec uwsgi --http-socket :5000 --wsgi-file "$(command -v keystone-wsgi-public)" --master --processes 2 ' +
        '--enable-threads --die-on-term --lazy-apps --buffer-size 65535 --add-header "Connection: close" ' +
        '--hook-master-start "unix_signal:15 gracefully_kill_them_all"',
    ]);
  });

  test('without messaging, notifications are off and Keystone has no vhost', () => {
    // THEN
    expect(fileOf(objects, 'keystone-api-config', 'keystone.conf')).toContain(
      '[oslo_messaging_notifications]\ndriver = noop\n',
    );
    expect(objects.some((o) => o.metadata.name === 'keystone-mq-init')).toBe(false);
  });

  test('notifications nobody consumes fail with the fix', () => {
    // GIVEN Keystone with messaging and no consumer
    const { cloud } = baseCloud({}, true);
    // WHEN / THEN
    expect(() => synthObjects(cloud)).toThrow(
      '[prod/keystone] messaging is set, so Keystone sends notifications, but nothing consumes them (their queue would grow ' +
        'without bound); remove `messaging` from Keystone, or add a consumer such as Barbican with its keystone listener',
    );
  });

  test('renders keystone.conf from typed options, with no credential in it', () => {
    const conf = fileOf(objects, 'keystone-api-config', 'keystone.conf');
    expect(conf).toContain('[token]\nexpiration = 3600\nprovider = fernet');
    expect(conf).toContain(
      'memcache_servers = cache-0.cache.openstack.svc:11211,cache-1.cache.openstack.svc:11211',
    );
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
        value: 'mysql+pymysql://keystone:$(DB_PASSWORD)@db.openstack.svc:3306/keystone?charset=utf8',
      },
    ]);
  });

  test('user overrides are merged and rendered', () => {
    const conf = fileOf(
      synthObjects(keystoneCloud({ token: { expiration: 7200 } })),
      'keystone-api-config',
      'keystone.conf',
    );
    expect(conf).toContain('expiration = 7200');
  });

  describe('Fernet key rotation', () => {
    const rotationOf = (objs: typeof objects) => findObject(objs, 'CronJob', 'keystone-fernet-rotation');
    const maxActiveKeys = (objs: typeof objects) =>
      /\[fernet_tokens\]\n(?:.*\n)*?max_active_keys = (\d+)/.exec(
        fileOf(objs, 'keystone-api-config', 'keystone.conf'),
      )?.[1];

    test('a daily CronJob rotates the keys, after their generator, as a Yaook operator Job', () => {
      const rotation = rotationOf(objects);
      expect((rotation.spec as { schedule: string; timeZone: string }).schedule).toBe('41 0 * * *');
      expect(edgesOf(rotation)).toEqual([
        { from: 'keystone-fernet-rotation', to: 'keystone-fernet-setup', kind: 'completed' },
      ]);
      expect(termsOf(rotation)).toEqual(keyTerms(operatorKeys('keystone')));
    });

    test('max_active_keys keeps every token valid through expiration plus allow_expired_window', () => {
      // (3600 s + 172800 s) / 24 h, rounded up, + the staged and the primary key
      expect(maxActiveKeys(objects)).toBe('5');
      const hourly = synthObjects(baseCloud({ fernetRotationHours: 1 }).cloud);
      expect((rotationOf(hourly).spec as { schedule: string }).schedule).toBe('41 */1 * * *');
      expect(maxActiveKeys(hourly)).toBe('51');
      const short = synthObjects(
        baseCloud({
          fernetRotationHours: 6,
          config: { token: { expiration: 7200, allow_expired_window: 0 } },
        }).cloud,
      );
      expect(maxActiveKeys(short)).toBe('3'); // 7200 s / 6 h, rounded up, + 2
      expect(JSON.stringify(rotationOf(short))).toContain('max=3');
    });

    test('a max_active_keys that would drop keys of valid tokens is refused with the fix', () => {
      expect(() => synthObjects(keystoneCloud({ fernet_tokens: { max_active_keys: 3 } }))).toThrow(
        '[prod/keystone] config.fernet_tokens.max_active_keys 3 drops keys while tokens signed with them are still accepted ' +
          '(rotation every 24 h, [token] expiration 3600 s + allow_expired_window 172800 s need 5); set it to at least 5, ' +
          'or remove it to get that default, or rotate less often (fernetRotationHours)',
      );
      const larger = synthObjects(keystoneCloud({ fernet_tokens: { max_active_keys: 7 } }));
      expect(maxActiveKeys(larger)).toBe('7');
      expect(JSON.stringify(rotationOf(larger))).toContain('max=7');
    });

    test('an interval that does not divide a day is refused', () => {
      expect(() => baseCloud({ fernetRotationHours: 5 as 4 })).toThrow(/fernetRotationHours/);
    });
  });

  test('an unknown oslo option fails with the construct path and the closest known options', () => {
    expect(() => synthObjects(keystoneCloud({ token: { expiraton: 7200 } }))).toThrow(
      '[prod/keystone] keystone.conf: unknown option "expiraton" in [token] (not defined by the service, or removed); [token] has expiration, allow_expired_window, allow_rescope_scoped_token, cache_on_issue, cache_time',
    );
  });

  test('a credential cannot be given as plain text, even without a password in it', () => {
    expect(() =>
      synthObjects(keystoneCloud({ database: { connection: 'sqlite:////var/lib/keystone.db' } })),
    ).toThrow(/keystone.conf: \[database\] connection carries a credential and cannot be set as plain text/);
  });

  test('a password in a URL is refused at the boundary, masked, with the Secret reference to use', () => {
    expect(() =>
      synthObjects(keystoneCloud({ database: { connection: 'mysql://root:secret@db/keystone' } })),
    ).toThrow(
      "[prod/keystone] config: [database] connection holds a password in plain text (mysql://root:****@), which would be rendered into a ConfigMap; pass it from a Secret instead: envFromSecret(osloEnvName('database', 'connection'), { secretName, key })",
    );
  });
});
