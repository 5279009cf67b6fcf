import { Heat, HeatProps } from '../../../constructs/openstack';
import { edgesOf, findObject, synthObjects } from '../../../lib/testing';
import {
  baseCloud,
  edgesFrom,
  envOf,
  expectPlacedOn,
  fileOf,
  keyTerms,
  objectsOfService,
  operatorKeys,
  commandOf,
  termsOf,
} from '../support/compute-network-fixture';

function heatCloud(overrides: Partial<HeatProps> = {}) {
  const { cloud, database, messaging, cache, keystone } = baseCloud();
  new Heat(cloud, 'heat', { keystone, database, messaging, cache, ...overrides });
  return cloud;
}

describe('Heat', () => {
  // GIVEN a cloud with Heat
  // WHEN it is synthesised
  const objects = synthObjects(heatCloud());

  test('matches the snapshot', () => {
    // THEN
    expect(objectsOfService(objects, 'heat')).toMatchSnapshot();
  });

  test.each([
    ['Deployment', 'heat-api'],
    ['Deployment', 'heat-engine'],
  ])('%s %s has no key of its own in the seed, so it runs on the API group key alone', (kind, name) => {
    // THEN
    expectPlacedOn(findObject(objects, kind, name), ['any.yaook.cloud/api']);
  });

  test.each(['heat-db-sync', 'heat-domain-setup', 'heat-ks-register', 'heat-domain-admin-credentials'])(
    'Job %s is scheduled like a Yaook operator Job',
    (name) => {
      // THEN
      expect(termsOf(findObject(objects, 'Job', name))).toEqual(keyTerms(operatorKeys('heat')));
    },
  );

  test('carries the canonical edges, including the domain and trusts setup', () => {
    // THEN API and engine wait for the same things
    const expected = (from: string) =>
      edgesFrom(from, {
        ready: ['cache', 'db', 'keystone-api', 'mq'],
        completed: ['heat-db-sync', 'heat-domain-setup', 'heat-ks-register', 'heat-mq-init'],
      });
    expect(edgesOf(findObject(objects, 'Deployment', 'heat-api'))).toEqual(expected('heat-api'));
    expect(edgesOf(findObject(objects, 'Deployment', 'heat-engine'))).toEqual(expected('heat-engine'));
    expect(edgesOf(findObject(objects, 'Job', 'heat-domain-setup'))).toEqual(
      edgesFrom('heat-domain-setup', { completed: ['heat-domain-admin-credentials', 'keystone-bootstrap'] }),
    );
  });

  test('the domain setup creates the stack domain, its admin and the delegated roles', () => {
    // THEN
    const job = findObject(objects, 'Job', 'heat-domain-setup');
    const [python, flag, program] = commandOf(job);
    expect([python, flag]).toEqual(['python3', '-c']);
    expect(program).toContain(
      'user = ensure_user(env["DOMAIN_ADMIN"], domain.id, env["DOMAIN_ADMIN_PASSWORD"])\n' +
        'identity.assign_domain_role_to_user(domain, user, identity.find_role("admin", ignore_missing=False))\n' +
        'for role in ("heat_stack_owner", "heat_stack_user"):\n',
    );
    expect(envOf(job)).toMatchObject({
      DOMAIN: 'heat',
      DOMAIN_ADMIN: 'heat_domain_admin',
      DOMAIN_ADMIN_PASSWORD: { secretKeyRef: { name: 'heat-domain-admin-credentials', key: 'password' } },
      OS_PASSWORD: { secretKeyRef: { name: 'keystone-admin-credentials', key: 'password' } },
    });
  });

  test('renders heat.conf with the stack domain and trustee, passwords from Secrets', () => {
    // THEN
    const conf = fileOf(objects, 'heat-engine-config', 'heat.conf');
    expect(conf).toContain(
      '[DEFAULT]\ndebug = false\nnum_engine_workers = 2\nregion_name_for_services = RegionOne\nstack_domain_admin = heat_domain_admin\nstack_user_domain_name = heat\n',
    );
    expect(conf).toContain(
      '[trustee]\nauth_type = password\nauth_url = http://keystone-api.openstack.svc:5000/v3\nuser_domain_name = Default\n',
    );
    expect(conf).toContain('[clients_keystone]\nauth_uri = http://keystone-api.openstack.svc:5000\n');
    expect(conf).not.toMatch(/password =/);
    expect(envOf(findObject(objects, 'Deployment', 'heat-engine'))).toMatchObject({
      OS_TRUSTEE__USERNAME: { secretKeyRef: { name: 'heat-keystone-user', key: 'username' } },
      OS_TRUSTEE__PASSWORD: { secretKeyRef: { name: 'heat-keystone-user', key: 'password' } },
      OS_DEFAULT__STACK_DOMAIN_ADMIN_PASSWORD: {
        secretKeyRef: { name: 'heat-domain-admin-credentials', key: 'password' },
      },
    });
  });

  test('typed options and overrides are rendered', () => {
    // GIVEN
    const tuned = synthObjects(
      heatCloud({
        engineWorkers: 4,
        stackUserDomain: 'stacks',
        config: { DEFAULT: { max_stacks_per_tenant: 50 } },
      }),
    );
    // THEN
    const conf = fileOf(tuned, 'heat-api-config', 'heat.conf');
    expect(conf).toContain('max_stacks_per_tenant = 50\nnum_engine_workers = 4\n');
    expect(conf).toContain('stack_user_domain_name = stacks\n');
  });

  test('bad input fails with the construct path and the fix', () => {
    // WHEN / THEN
    expect(() => synthObjects(heatCloud({ config: { DEFAULT: { num_engine_worker: 4 } } }))).toThrow(
      '[prod/heat] heat.conf: unknown option "num_engine_worker" in [DEFAULT] (not defined by the service, or removed); [DEFAULT] has num_engine_workers, action_retry_limit, allow_trusts_redelegation, auth_encryption_key, backdoor_port',
    );
    expect(() => synthObjects(heatCloud({ engineWorkers: 0 }))).toThrow(
      /\[prod\/heat\] engineWorkers must be between 1 and 64, got 0/,
    );
    expect(() => synthObjects(heatCloud({ stackUserDomain: 'heat; rm -rf /' }))).toThrow(
      /\[prod\/heat\] stackUserDomain "heat; rm -rf \/" must be letters, digits, '_' or '-'/,
    );
  });

  test('a Heat without messaging fails for JavaScript users with the path and what to pass', () => {
    // GIVEN
    const { cloud, database, cache, keystone } = baseCloud();
    const props = { keystone, database, cache } as unknown as HeatProps;
    // WHEN / THEN
    expect(() => new Heat(cloud, 'heat', props)).toThrow(
      '[prod/heat] missing required input "messaging": pass a RabbitMQ or externalMessaging(...) as `messaging`',
    );
  });
});
