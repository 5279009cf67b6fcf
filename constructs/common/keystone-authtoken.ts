import { k8s } from 'cdk8s-plus-33';
import { CacheEndpoint } from './endpoints';
import { IdentityEndpoint, KeystoneRegistration } from './keystone-registration';
import { OsloSchema, OsloValues, osloEnvName } from './oslo-config';
import { envFromSecret } from './secret-ref';

/** The `[keystone_authtoken]` options every OpenStack API shares; spread into a service's schema. */
export const KEYSTONE_AUTHTOKEN_SCHEMA: OsloSchema = {
  keystone_authtoken: {
    www_authenticate_uri: 'string',
    auth_url: 'string',
    auth_type: 'string',
    username: 'string',
    password: 'secret',
    project_name: 'string',
    user_domain_name: 'string',
    project_domain_name: 'string',
    region_name: 'string',
    memcached_servers: 'list',
    service_token_roles_required: 'bool',
  },
};

/**
 * How an OpenStack API validates tokens: `[keystone_authtoken]` pointing at Keystone with the
 * service's own user, token caching in memcached. The password is not in the returned values: it
 * reaches the pod through {@link keystoneAuthtokenEnv}.
 */
export function keystoneAuthtokenConfig(
  keystone: IdentityEndpoint,
  registration: KeystoneRegistration,
  cache: CacheEndpoint,
): OsloValues {
  return {
    keystone_authtoken: {
      www_authenticate_uri: keystone.authUrl,
      auth_url: keystone.authUrl,
      auth_type: 'password',
      username: registration.userName,
      project_name: 'service',
      user_domain_name: 'Default',
      project_domain_name: 'Default',
      region_name: keystone.region,
      memcached_servers: [...cache.servers],
      service_token_roles_required: true,
    },
  };
}

/** `[keystone_authtoken] password` from the registration's generated Secret. */
export function keystoneAuthtokenEnv(registration: KeystoneRegistration): k8s.EnvVar[] {
  return [envFromSecret(osloEnvName('keystone_authtoken', 'password'), registration.password)];
}
