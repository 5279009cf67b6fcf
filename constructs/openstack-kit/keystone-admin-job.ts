import { Construct } from 'constructs';
import { Cloud } from '../../lib/model';
import { SchedulingKey } from '../../lib/scheduling';
import { JobComponent } from '../kube/job-component';
import { SecretRef } from '../kube/secret-ref';
import { IdentityEndpoint } from './endpoints';

/**
 * The environment of an OpenStack client acting as Keystone's admin (registration, Heat's stack
 * user domain, Ironic's networks). `OS_PASSWORD` is not in it: pass
 * `keystone.adminCredentials.ref('password')` as a secret variable.
 */
export function keystoneAdminClientEnv(keystone: IdentityEndpoint): Record<string, string> {
  return {
    OS_AUTH_URL: keystone.authUrl,
    OS_REGION_NAME: keystone.region,
    OS_USERNAME: 'admin',
    OS_PROJECT_NAME: 'admin',
    OS_USER_DOMAIN_NAME: 'Default',
    OS_PROJECT_DOMAIN_NAME: 'Default',
  };
}

/**
 * What every program starts with: `env` (the environment), `identity` (openstacksdk's identity
 * proxy, authenticated as the admin from the `OS_*` variables) and `ensure_user`.
 */
const PRELUDE = `import os
import openstack

env = os.environ
identity = openstack.connect().identity


def ensure_user(name, domain_id, secret):
    """The user, created with the password or given it: the Secret stays authoritative."""
    user = identity.find_user(name, domain_id=domain_id)
    if user is None:
        return identity.create_user(name=name, domain_id=domain_id, password=secret)
    return identity.update_user(user, password=secret)
`;

export interface KeystoneAdminJobProps {
  readonly keystone: IdentityEndpoint;
  /** The owning service's operator key (the Job is scheduled with it). */
  readonly operatorKey: SchedulingKey;
  /** The Python program, run after the prelude (see {@link PRELUDE}); parameters come from `env`. */
  readonly program: string;
  /** Plain parameters of the program. @default - none */
  readonly env?: Readonly<Record<string, string>>;
  /** Parameters read from Secrets, e.g. the password of a user the program creates. @default - none */
  readonly secretEnv?: Readonly<Record<string, SecretRef>>;
}

/**
 * A Job that changes Keystone as its admin with an openstacksdk program (`python3 -c`), after
 * Keystone's bootstrap. Passwords reach the program through the environment only: the
 * `openstack` CLI would need them as `--password` arguments, on the process's argv.
 */
export class KeystoneAdminJob extends JobComponent {
  constructor(scope: Construct, id: string, props: KeystoneAdminJobProps) {
    super(scope, id, {
      operatorKey: props.operatorKey,
      image: Cloud.of(scope).image('openstackclient'),
      command: ['python3', '-c', `${PRELUDE}\n${props.program}`],
      env: { ...keystoneAdminClientEnv(props.keystone), ...props.env },
      secretEnv: { OS_PASSWORD: props.keystone.adminCredentials.ref('password'), ...props.secretEnv },
    });
    this.dependsOn(props.keystone.registrationTarget, 'completed');
  }
}
