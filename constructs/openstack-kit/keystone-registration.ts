import { Construct } from 'constructs';
import { SchedulingKey } from '../../lib/scheduling';
import { GeneratedSecret } from '../kube/generated-secret';
import { IdentityEndpoint } from './endpoints';
import { KeystoneAdminJob } from './keystone-admin-job';
import { SecretRef } from '../kube/secret-ref';
import { completeServiceUrl } from '../kube/service-host';
import {
  ALTERNATE_USER_SUFFIX,
  ServiceUserRotation,
  ServiceUserRotationSchedule,
} from './service-user-rotation';

/**
 * Ensures the `service` project, the catalogue entry with its three endpoints (when
 * `ENDPOINT_URL` is set) and the service user with the `admin` and `service` roles on `service`.
 * The `service` role is what keystonemiddleware asks of a service token
 * (`service_token_roles_required`, see keystone-authtoken.ts): without it, every call one service
 * makes for a user with its service token (Nova listing the user's networks in Neutron) gets 401.
 * Keystone's bootstrap creates the role from 2023.2; it is created when missing all the same.
 */
const REGISTRATION_PROGRAM = `url = env.get("ENDPOINT_URL")
if url:
    service = identity.find_service(env["SERVICE_NAME"])
    if service is None:
        service = identity.create_service(name=env["SERVICE_NAME"], type=env["SERVICE_TYPE"])
    for interface in ("internal", "public", "admin"):
        if not list(identity.endpoints(service_id=service.id, interface=interface)):
            identity.create_endpoint(service_id=service.id, interface=interface, url=url,
                                     region_id=env["OS_REGION_NAME"])
ensure_service_user(env["USER_NAME"], env["SERVICE_PASSWORD"])
`;

export interface KeystoneRegistrationProps {
  readonly keystone: IdentityEndpoint;
  readonly operatorKey: SchedulingKey;
  /**
   * Catalogue type, e.g. `image`, `compute`, `placement`; required with `endpointUrl`.
   * @default - none (only with no `endpointUrl`)
   */
  readonly serviceType?: string;
  /** Name in the catalogue, e.g. `glance`; also the service user's name. */
  readonly catalogName: string;
  /**
   * The URL registered as internal, public and admin endpoint.
   * @default - no catalogue entry: only the service user, for services without an API (Ceilometer)
   */
  readonly endpointUrl?: string;
  /**
   * How often the service user's password is rotated (see {@link ServiceUserRotation}).
   * @default 'on-demand'
   */
  readonly rotation?: ServiceUserRotationSchedule;
}

/**
 * Registers a service with Keystone: its service user (password generated in the cluster), the
 * catalogue entry and its endpoints. One Job (`<svc>-ks-register`) running an
 * idempotent openstacksdk program; it waits for Keystone's bootstrap to have completed.
 *
 * The user's name and password are both in the Secret `<svc>-keystone-user` (keys `username`,
 * `password`), which the service's pods read at start: the name starts as the catalogue name, and
 * the rotation switches it between that name and `<name>-alt` (see {@link ServiceUserRotation}).
 * The Job ensures the user the Secret names, so a re-run after a rotation leaves the other alone.
 */
export class KeystoneRegistration extends Construct {
  readonly credentials: GeneratedSecret;
  readonly job: KeystoneAdminJob;
  /** The user's name until the first rotation, the catalogue name. */
  readonly userName: string;
  /** The rotation's CronJob, unless the rotation is `never`. */
  readonly rotation?: ServiceUserRotation;

  constructor(scope: Construct, id: string, props: KeystoneRegistrationProps) {
    super(scope, id);
    this.userName = props.catalogName;
    this.credentials = new GeneratedSecret(this, `${id}-credentials`, {
      operatorKey: props.operatorKey,
      keys: ['password'],
      initial: { username: this.userName },
      secretName: `${scope.node.id}-keystone-user`,
    });
    // The catalogue is read from both of the cloud's namespaces (nova-compute finds Glance, Neutron
    // and Placement in it): a bare Service name would resolve only in the control plane's.
    const url = props.endpointUrl === undefined ? undefined : completeServiceUrl(this, props.endpointUrl);
    if (url !== undefined && !props.serviceType) {
      throw new Error(
        `[${this.node.path}] endpointUrl needs serviceType (the catalogue type, e.g. 'volumev3')`,
      );
    }
    this.job = new KeystoneAdminJob(this, id, {
      keystone: props.keystone,
      operatorKey: props.operatorKey,
      program: REGISTRATION_PROGRAM,
      env:
        url === undefined
          ? {}
          : { SERVICE_NAME: props.catalogName, SERVICE_TYPE: props.serviceType ?? '', ENDPOINT_URL: url },
      secretEnv: { USER_NAME: this.username, SERVICE_PASSWORD: this.password },
    });
    this.job.dependsOn(this.credentials, 'completed');
    const rotation = props.rotation ?? 'on-demand';
    if (rotation !== 'never') {
      this.rotation = new ServiceUserRotation(this, 'ks-user-rotation', {
        keystone: props.keystone,
        operatorKey: props.operatorKey,
        schedule: rotation,
        secretName: this.credentials.secretName,
        users: [this.userName, `${this.userName}${ALTERNATE_USER_SUFFIX}`],
      });
      this.rotation.dependsOn(this.job, 'completed');
    }
  }

  /** The service user's name, for `[<section>] username`. */
  get username(): SecretRef {
    return this.credentials.ref('username');
  }

  /** The service user's password, for `[<section>] password`. */
  get password(): SecretRef {
    return this.credentials.ref('password');
  }
}
