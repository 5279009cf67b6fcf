import { Construct } from 'constructs';
import { SchedulingKey } from '../../lib/scheduling';
import { GeneratedSecret } from '../kube/generated-secret';
import { IdentityEndpoint } from './endpoints';
import { KeystoneAdminJob } from './keystone-admin-job';
import { SecretRef } from '../kube/secret-ref';
import { completeServiceUrl } from '../kube/service-host';

/**
 * Ensures the `service` project, the catalogue entry with its three endpoints (when
 * `ENDPOINT_URL` is set) and the service user with the `admin` and `service` roles on `service`.
 * The `service` role is what keystonemiddleware asks of a service token
 * (`service_token_roles_required`, see keystone-authtoken.ts): without it, every call one service
 * makes for a user with its service token (Nova listing the user's networks in Neutron) gets 401.
 * Keystone's bootstrap creates the role from 2023.2; it is created when missing all the same.
 */
const REGISTRATION_PROGRAM = `project = identity.find_project("service", domain_id="default")
if project is None:
    project = identity.create_project(name="service", domain_id="default")
url = env.get("ENDPOINT_URL")
if url:
    service = identity.find_service(env["SERVICE_NAME"])
    if service is None:
        service = identity.create_service(name=env["SERVICE_NAME"], type=env["SERVICE_TYPE"])
    for interface in ("internal", "public", "admin"):
        if not list(identity.endpoints(service_id=service.id, interface=interface)):
            identity.create_endpoint(service_id=service.id, interface=interface, url=url,
                                     region_id=env["OS_REGION_NAME"])
user = ensure_user(env["USER_NAME"], "default", env["SERVICE_PASSWORD"])
identity.assign_project_role_to_user(project, user, identity.find_role("admin", ignore_missing=False))
service_role = identity.find_role("service") or identity.create_role(name="service")
identity.assign_project_role_to_user(project, user, service_role)
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
}

/**
 * Registers a service with Keystone: its service user (password generated in the cluster), the
 * catalogue entry and its endpoints. One Job (`<svc>-ks-register`) running an
 * idempotent openstacksdk program; it waits for Keystone's bootstrap to have completed.
 */
export class KeystoneRegistration extends Construct {
  readonly credentials: GeneratedSecret;
  readonly job: KeystoneAdminJob;
  readonly userName: string;

  constructor(scope: Construct, id: string, props: KeystoneRegistrationProps) {
    super(scope, id);
    this.userName = props.catalogName;
    this.credentials = new GeneratedSecret(this, `${id}-credentials`, {
      operatorKey: props.operatorKey,
      keys: ['password'],
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
      env: {
        USER_NAME: this.userName,
        ...(url === undefined
          ? {}
          : { SERVICE_NAME: props.catalogName, SERVICE_TYPE: props.serviceType ?? '', ENDPOINT_URL: url }),
      },
      secretEnv: { SERVICE_PASSWORD: this.credentials.ref('password') },
    });
    this.job.dependsOn(this.credentials, 'completed');
  }

  /** The service user's password, for `[keystone_authtoken] password`. */
  get password(): SecretRef {
    return this.credentials.ref('password');
  }
}
