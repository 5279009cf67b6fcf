import { k8s } from 'cdk8s-plus-33';
import { IdentityEndpoint } from './endpoints';
import { KeystoneRegistration } from './keystone-registration';
import { OsloOptionType, OsloValue, osloEnvName } from './oslo-config';
import { envFromSecret } from '../kube/secret-ref';

/**
 * The keystoneauth options of a section in which a service authenticates as its own service user
 * (`[keystone_authtoken]`, Nova's `[placement]` and `[neutron]`, Neutron's `[nova]`, Ironic's
 * `[glance]`…); spread into the section's schema and add the section's own options, such as
 * `valid_interfaces`.
 */
export const SERVICE_USER_AUTH_OPTIONS = {
  auth_type: 'string',
  auth_url: 'string',
  username: 'string',
  password: 'secret',
  project_name: 'string',
  user_domain_name: 'string',
  project_domain_name: 'string',
  region_name: 'string',
} as const satisfies Readonly<Record<string, OsloOptionType>>;

/**
 * The values of such a section: the password plugin with the service's user in the `service`
 * project. The user's name and password are not among them: both come from the registration's
 * Secret through {@link serviceUserCredentialsEnv}, because a rotation
 * (`ServiceUserRotation`) switches the service between two users.
 *
 * @example
 * const conf = { placement: { ...serviceUserAuthConfig(keystone), valid_interfaces: ['internal'] } };
 */
export function serviceUserAuthConfig(keystone: IdentityEndpoint): Record<string, OsloValue> {
  return {
    auth_type: 'password',
    auth_url: keystone.authUrl,
    project_name: 'service',
    user_domain_name: 'Default',
    project_domain_name: 'Default',
    region_name: keystone.region,
  };
}

/** `[<section>] username` and `password` from the service user's Secret, read at pod start. */
export function serviceUserCredentialsEnv(section: string, registration: KeystoneRegistration): k8s.EnvVar[] {
  return [
    envFromSecret(osloEnvName(section, 'username'), registration.username),
    envFromSecret(osloEnvName(section, 'password'), registration.password),
  ];
}
