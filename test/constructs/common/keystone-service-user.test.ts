import {
  KEYSTONE_AUTHTOKEN_SCHEMA,
  keystoneAdminClientEnv,
  keystoneAuthtokenConfig,
  KeystoneRegistration,
} from '../../../constructs/common';
import {
  SERVICE_USER_AUTH_OPTIONS,
  serviceUserAuthConfig,
  serviceUserPasswordEnv,
} from '../../../constructs/common/keystone-service-user';
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
  test('authenticate with the password plugin as the registered user in the service project', () => {
    // GIVEN
    const { keystone, ksRegister } = registration();
    // WHEN
    const section = serviceUserAuthConfig(keystone, ksRegister);
    // THEN
    expect(section).toEqual({
      auth_type: 'password',
      auth_url: 'http://keystone-api.openstack.svc:5000/v3',
      username: 'example',
      project_name: 'service',
      user_domain_name: 'Default',
      project_domain_name: 'Default',
      region_name: 'RegionOne',
    });
    expect(Object.keys(section).sort()).toEqual(
      Object.keys(SERVICE_USER_AUTH_OPTIONS)
        .filter((o) => o !== 'password')
        .sort(),
    );
  });

  test('the password comes from the registration Secret, never from the rendered section', () => {
    // GIVEN
    const { ksRegister } = registration();
    // WHEN
    const env = serviceUserPasswordEnv('placement', ksRegister);
    // THEN
    expect(SERVICE_USER_AUTH_OPTIONS.password).toBe('secret');
    expect(env).toEqual({
      name: 'OS_PLACEMENT__PASSWORD',
      valueFrom: { secretKeyRef: { name: 'keystone-keystone-user', key: 'password' } },
    });
  });

  test('[keystone_authtoken] is a service user section with token caching', () => {
    // GIVEN
    const { keystone, cache, ksRegister } = registration();
    // WHEN
    const config = keystoneAuthtokenConfig(keystone, ksRegister, cache);
    // THEN
    expect(config.keystone_authtoken).toEqual({
      ...serviceUserAuthConfig(keystone, ksRegister),
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
