import { k8s } from 'cdk8s-plus-33';
import { CacheEndpoint } from './endpoints';
import { IdentityEndpoint } from './endpoints';
import { KeystoneRegistration } from './keystone-registration';
import {
  SERVICE_USER_AUTH_OPTIONS,
  serviceUserAuthConfig,
  serviceUserPasswordEnv,
} from './keystone-service-user';
import { OsloSchema, OsloValues } from './oslo-config';

/** The `[keystone_authtoken]` options every OpenStack API shares; spread into a service's schema. */
export const KEYSTONE_AUTHTOKEN_SCHEMA: OsloSchema = {
  keystone_authtoken: {
    www_authenticate_uri: 'string',
    ...SERVICE_USER_AUTH_OPTIONS,
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
      ...serviceUserAuthConfig(keystone, registration),
      memcached_servers: [...cache.servers],
      service_token_roles_required: true,
    },
  };
}

/** `[keystone_authtoken] password` from the registration's generated Secret. */
export function keystoneAuthtokenEnv(registration: KeystoneRegistration): k8s.EnvVar[] {
  return [serviceUserPasswordEnv('keystone_authtoken', registration)];
}
