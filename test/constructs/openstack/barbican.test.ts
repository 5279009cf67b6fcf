import { Barbican, BarbicanProps } from '../../../constructs/openstack';
import { edgesOf, findObject, synthObjects } from '../../../lib/testing';
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

function barbicanCloud(overrides: Partial<BarbicanProps> = {}, keystoneNotifications = true) {
  const { cloud, database, messaging, cache, keystone } = baseCloud({}, keystoneNotifications);
  new Barbican(cloud, 'barbican', { keystone, database, messaging, cache, ...overrides });
  return cloud;
}

describe('Barbican', () => {
  // GIVEN a cloud with Barbican
  // WHEN it is synthesised
  const objects = synthObjects(barbicanCloud());

  test('matches the snapshot', () => {
    // THEN
    expect(objectsOfService(objects, 'barbican')).toMatchSnapshot();
  });

  test.each([
    ['Deployment', 'barbican-api', ['key-manager.yaook.cloud/api', 'any.yaook.cloud/api']],
    [
      'Deployment',
      'barbican-keystone-listener',
      ['key-manager.yaook.cloud/barbican-keystone-listener', 'key-manager.yaook.cloud/barbican-any-service'],
    ],
    ['Job', 'barbican-kek-setup', operatorKeys('barbican')],
    ['Job', 'barbican-db-sync', operatorKeys('barbican')],
    ['Job', 'barbican-ks-register', operatorKeys('barbican')],
  ])('%s %s runs on its seed key or its group key and tolerates both', (kind, name, keys) => {
    // THEN
    expectPlacedOn(findObject(objects, kind, name), keys);
  });

  test("carries the canonical edges: RabbitMQ is soft for the API, Keystone's vhost gating for the listener", () => {
    // THEN
    expect(edgesOf(findObject(objects, 'Deployment', 'barbican-api'))).toEqual(
      edgesFrom('barbican-api', {
        completed: ['barbican-db-sync', 'barbican-kek-setup', 'barbican-ks-register'],
        ready: ['cache', 'db', 'keystone-api'],
        runtime: ['mq'],
      }),
    );
    expect(edgesOf(findObject(objects, 'Deployment', 'barbican-keystone-listener'))).toEqual(
      edgesFrom('barbican-keystone-listener', {
        completed: ['barbican-db-sync', 'keystone-mq-init'],
        runtime: ['keystone-api'],
        ready: ['mq'],
      }),
    );
  });

  test('the key encryption key is generated in the cluster and reaches only the API, from its Secret', () => {
    // THEN the generator Job writes a Fernet key into barbican-kek
    const script = scriptOf(findObject(objects, 'Job', 'barbican-kek-setup'));
    // (created when missing; the lines before complete an existing Secret: test/constructs/kube/generated-secret.test.ts)
    expect(script.split('\n').slice(-1)).toEqual([
      `printf '{"apiVersion":"v1","kind":"Secret","metadata":{"name":"barbican-kek"},"stringData":{"kek":"%s"}}' "$(openssl rand 32 | base64 | tr '+/' '-_')" | kubectl create -f -`,
    ]);
    expect(envOf(findObject(objects, 'Deployment', 'barbican-api')).OS_SIMPLE_CRYPTO_PLUGIN__KEK).toEqual({
      secretKeyRef: { name: 'barbican-kek', key: 'kek' },
    });
    expect(
      envOf(findObject(objects, 'Deployment', 'barbican-keystone-listener')).OS_SIMPLE_CRYPTO_PLUGIN__KEK,
    ).toBeUndefined();
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
  });

  test('renders barbican.conf with the simple crypto store and keystone notifications', () => {
    // THEN
    const conf = fileOf(objects, 'barbican-api-config', 'barbican.conf');
    expect(conf).toContain('[DEFAULT]\ndebug = false\nhost_href = http://barbican-api.openstack.svc:9311\n');
    expect(conf).toContain('[crypto]\nenabled_crypto_plugins = simple_crypto\n');
    expect(conf).toContain('[secretstore]\nenabled_secretstore_plugins = store_crypto\n');
    expect(conf).toContain(
      '[keystone_notifications]\nallow_requeue = false\nenable = true\ntopic = notifications\n',
    );
    expect(conf).not.toMatch(/kek =|password =|connection =/);
  });

  test("the listener consumes Keystone's notifications from Keystone's vhost", () => {
    // THEN the listener's transport is Keystone's vhost, on which Keystone publishes to `notifications`
    expect(
      envOf(findObject(objects, 'Deployment', 'barbican-keystone-listener')).OS_DEFAULT__TRANSPORT_URL,
    ).toBe('rabbit://keystone:$(MQ_PASSWORD)@mq.openstack.svc:5672/keystone');
    expect(fileOf(objects, 'keystone-api-config', 'keystone.conf')).toContain(
      '[oslo_messaging_notifications]\ndriver = messagingv2\ntopics = notifications\n',
    );
    expect(fileOf(objects, 'barbican-api-config', 'barbican.conf')).toContain(
      '[oslo_messaging_notifications]\ndriver = noop\n',
    );
  });

  test('a listener without Keystone notifications fails with the fix', () => {
    // WHEN / THEN
    expect(() => synthObjects(barbicanCloud({ keystoneListener: true }, false))).toThrow(
      "[prod/barbican] keystoneListener consumes Keystone's notifications, but prod/keystone sends none; pass `messaging` to Keystone, or set keystoneListener: false",
    );
  });

  test('without the listener there is no listener component and notifications are off', () => {
    // GIVEN Keystone without notifications: the listener is off by default
    const without = synthObjects(barbicanCloud({}, false));
    // THEN
    expect(without.some((o) => o.metadata.name === 'barbican-keystone-listener')).toBe(false);
    expect(fileOf(without, 'barbican-api-config', 'barbican.conf')).toContain(
      '[keystone_notifications]\nallow_requeue = false\nenable = false\n',
    );
  });

  test('an unknown oslo option and a plain-text KEK fail with the construct path', () => {
    // WHEN / THEN
    expect(() =>
      synthObjects(barbicanCloud({ config: { crypto: { enabled_crypto_plugin: ['p11_crypto'] } } })),
    ).toThrow(
      '[prod/barbican] barbican.conf: unknown option "enabled_crypto_plugin" in [crypto] (not defined by the service, or removed); [crypto] has enabled_crypto_plugins',
    );
    expect(() =>
      synthObjects(barbicanCloud({ config: { simple_crypto_plugin: { kek: 'dGhpcyBpcyBub3QgYSBrZXk=' } } })),
    ).toThrow(
      /\[prod\/barbican\] barbican.conf: \[simple_crypto_plugin\] kek carries a credential and cannot be set as plain text/,
    );
  });

  test('a Barbican without a database fails for JavaScript users with the path and what to pass', () => {
    // GIVEN
    const { cloud, messaging, cache, keystone } = baseCloud();
    const props = { keystone, messaging, cache } as unknown as BarbicanProps;
    // WHEN / THEN
    expect(() => new Barbican(cloud, 'barbican', props)).toThrow(
      '[prod/barbican] missing required input "database": pass a MariaDB or externalDatabase(...) as `database`',
    );
  });
});
