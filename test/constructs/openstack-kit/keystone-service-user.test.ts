import {
  KEYSTONE_AUTHTOKEN_SCHEMA,
  keystoneAdminClientEnv,
  keystoneAuthtokenConfig,
  KeystoneRegistration,
} from '../../../constructs';
import {
  SERVICE_USER_AUTH_OPTIONS,
  serviceUserAuthConfig,
  serviceUserCredentialsEnv,
} from '../../../constructs/openstack-kit/keystone-service-user';
import { SchedulingKey } from '../../../lib/scheduling';
import { baseCloud } from '../support/compute-network-fixture';

function registration() {
  const { keystone, cache } = baseCloud();
  const ksRegister = new KeystoneRegistration(keystone, 'ks-register', {
    keystone,
    operatorKey: SchedulingKey.OPERATOR_KEYSTONE,
    catalogName: 'example',
  });
  return { keystone, cache, ksRegister };
}

describe('service user sections', () => {
  test('authenticate with the password plugin in the service project', () => {
    // GIVEN
    const { keystone } = registration();
    // WHEN
    const section = serviceUserAuthConfig(keystone);
    // THEN
    expect(section).toEqual({
      auth_type: 'password',
      auth_url: 'http://keystone-api.openstack.svc:5000/v3',
      project_name: 'service',
      user_domain_name: 'Default',
      project_domain_name: 'Default',
      region_name: 'RegionOne',
    });
    expect(Object.keys(section).sort()).toEqual(
      Object.keys(SERVICE_USER_AUTH_OPTIONS)
        .filter((o) => o !== 'password' && o !== 'username')
        .sort(),
    );
  });

  test('the user and its password come from the registration Secret (a rotation switches both), never from the rendered section', () => {
    // GIVEN
    const { ksRegister } = registration();
    // WHEN
    const env = serviceUserCredentialsEnv('placement', ksRegister);
    // THEN
    expect(SERVICE_USER_AUTH_OPTIONS.password).toBe('secret');
    expect(env).toEqual([
      {
        name: 'OS_PLACEMENT__USERNAME',
        valueFrom: { secretKeyRef: { name: 'keystone-keystone-user', key: 'username' } },
      },
      {
        name: 'OS_PLACEMENT__PASSWORD',
        valueFrom: { secretKeyRef: { name: 'keystone-keystone-user', key: 'password' } },
      },
    ]);
  });

  test('[keystone_authtoken] is a service user section with token caching', () => {
    // GIVEN
    const { keystone, cache } = registration();
    // WHEN
    const config = keystoneAuthtokenConfig(keystone, cache);
    // THEN
    expect(config.keystone_authtoken).toEqual({
      ...serviceUserAuthConfig(keystone),
      www_authenticate_uri: 'http://keystone-api.openstack.svc:5000/v3',
      memcached_servers: ['cache-0.cache.openstack.svc:11211', 'cache-1.cache.openstack.svc:11211'],
      service_token_roles_required: true,
    });
    expect(Object.keys(KEYSTONE_AUTHTOKEN_SCHEMA.keystone_authtoken).sort()).toEqual(
      [
        ...Object.keys(SERVICE_USER_AUTH_OPTIONS),
        'www_authenticate_uri',
        'memcached_servers',
        'service_token_roles_required',
      ].sort(),
    );
  });
});

test('the registered user holds the role keystonemiddleware asks of service tokens', () => {
  // GIVEN a registration, and authtoken sections that require the service token's roles
  const { keystone, cache, ksRegister } = registration();
  expect(keystoneAuthtokenConfig(keystone, cache).keystone_authtoken).toMatchObject({
    service_token_roles_required: true,
  });
  // WHEN its Job's program is rendered
  const spec = ksRegister.job.job.toJson().spec as {
    template: { spec: { containers: { command?: string[]; args?: string[] }[] } };
  };
  const container = spec.template.spec.containers[0];
  const program = [...(container.command ?? []), ...(container.args ?? [])].join('\n');
  // THEN the user gets `service` (created when missing) next to `admin` on the service project
  // (without it, Neutron answered 401 to Nova's calls for a user: NeutronAdminCredentialConfigurationInvalid)
  expect(program).toContain('identity.find_role("service") or identity.create_role(name="service")');
  expect(program).toContain('identity.assign_project_role_to_user(project, user, service_role)');
  expect(program).toContain('ensure_service_user(env["USER_NAME"], env["SERVICE_PASSWORD"])');
});

describe('keystoneAdminClientEnv', () => {
  test("an openstack client as Keystone's admin in the admin project, without the password", () => {
    // GIVEN
    const { keystone } = registration();
    // WHEN
    const env = keystoneAdminClientEnv(keystone);
    // THEN
    expect(env).toEqual({
      OS_AUTH_URL: 'http://keystone-api.openstack.svc:5000/v3',
      OS_REGION_NAME: 'RegionOne',
      OS_USERNAME: 'admin',
      OS_PROJECT_NAME: 'admin',
      OS_USER_DOMAIN_NAME: 'Default',
      OS_PROJECT_DOMAIN_NAME: 'Default',
    });
    expect(env).not.toHaveProperty('OS_PASSWORD');
  });
});
