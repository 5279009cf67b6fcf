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
 * proxy, authenticated as the admin from the `OS_*` variables), `ensure_user` and
 * `ensure_service_user`.
 */
const PRELUDE = `import os
import openstack

env = os.environ
identity = openstack.connect().identity


def ensure_user(name, domain_id, secret):
    """The user, created with the password or given it, enabled: the Secret stays authoritative."""
    user = identity.find_user(name, domain_id=domain_id)
    if user is None:
        return identity.create_user(name=name, domain_id=domain_id, password=secret)
    return identity.update_user(user, password=secret, is_enabled=True)


def ensure_service_user(name, secret):
    """A service's user: ensure_user in the \`service\` project, with the \`admin\` and \`service\` roles."""
    project = identity.find_project("service", domain_id="default")
    if project is None:
        project = identity.create_project(name="service", domain_id="default")
    user = ensure_user(name, "default", secret)
    identity.assign_project_role_to_user(project, user, identity.find_role("admin", ignore_missing=False))
    service_role = identity.find_role("service") or identity.create_role(name="service")
    identity.assign_project_role_to_user(project, user, service_role)
    return user
`;

/**
 * The command that runs `program` after the prelude, in the openstackclient image, with the
 * environment of {@link keystoneAdminClientEnv} and the admin's password as `OS_PASSWORD`.
 */
export function keystoneAdminProgram(program: string): string[] {
  return ['python3', '-c', `${PRELUDE}\n${program}`];
}

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
      command: keystoneAdminProgram(props.program),
      env: { ...keystoneAdminClientEnv(props.keystone), ...props.env },
      secretEnv: { OS_PASSWORD: props.keystone.adminCredentials.ref('password'), ...props.secretEnv },
    });
    this.dependsOn(props.keystone.registrationTarget, 'completed');
  }
}
