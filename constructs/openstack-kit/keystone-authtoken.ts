import { k8s } from 'cdk8s-plus-33';
import { CacheEndpoint } from './endpoints';
import { IdentityEndpoint } from './endpoints';
import { KeystoneRegistration } from './keystone-registration';
import {
  SERVICE_USER_AUTH_OPTIONS,
  serviceUserAuthConfig,
  serviceUserCredentialsEnv,
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
 * service's own user, token caching in memcached. The user's name and password are not in the
 * returned values: they reach the pod through {@link keystoneAuthtokenEnv}.
 */
export function keystoneAuthtokenConfig(keystone: IdentityEndpoint, cache: CacheEndpoint): OsloValues {
  return {
    keystone_authtoken: {
      www_authenticate_uri: keystone.authUrl,
      ...serviceUserAuthConfig(keystone),
      memcached_servers: [...cache.servers],
      service_token_roles_required: true,
    },
  };
}

/** `[keystone_authtoken] username` and `password` from the registration's Secret. */
export function keystoneAuthtokenEnv(registration: KeystoneRegistration): k8s.EnvVar[] {
  return serviceUserCredentialsEnv('keystone_authtoken', registration);
}
