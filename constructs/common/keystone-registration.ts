import { Construct } from 'constructs';
import { insideSingleQuotes, shellWord } from './shell-word';
import { Cloud } from '../../lib/model';
import { SchedulingKey } from '../../lib/scheduling';
import { GeneratedSecret } from './generated-secret';
import { JobComponent } from './job-component';
import { envFromSecret, SecretRef } from './secret-ref';

/** What registration needs from Keystone; `Keystone` implements it. */
export interface IdentityEndpoint {
  /** e.g. `http://keystone-api:5000/v3` */
  readonly authUrl: string;
  readonly region: string;
  readonly adminCredentials: { ref(key: string): SecretRef };
  /** The component registration waits for (Keystone's bootstrap Job). */
  readonly registrationTarget: JobComponent;
}

/**
 * The environment of an `openstack` client Job acting as Keystone's admin (registration, Heat's
 * stack user domain, Ironic's networks). `OS_PASSWORD` is not in it: pass
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
 * catalogue entry and its endpoints. One Job (`<svc>-ks-register`) running idempotent
 * `openstack` commands; it waits for Keystone's bootstrap to have completed.
 */
export class KeystoneRegistration extends Construct {
  readonly credentials: GeneratedSecret;
  readonly job: JobComponent;
  readonly userName: string;

  constructor(scope: Construct, id: string, props: KeystoneRegistrationProps) {
    super(scope, id);
    const cloud = Cloud.of(this);
    this.userName = props.catalogName;
    this.credentials = new GeneratedSecret(this, `${id}-credentials`, {
      operatorKey: props.operatorKey,
      keys: ['password'],
      secretName: `${scope.node.id}-keystone-user`,
    });
    const url = props.endpointUrl;
    if (url !== undefined && !props.serviceType) {
      throw new Error(
        `[${this.node.path}] endpointUrl needs serviceType (the catalogue type, e.g. 'volumev3')`,
      );
    }
    const catalogName = shellWord(props.catalogName, 'catalogName');
    const userName = shellWord(this.userName, 'userName');
    const catalogue =
      url === undefined
        ? []
        : [
            `openstack service show ${catalogName} || openstack service create --name ${catalogName} ${shellWord(props.serviceType ?? '', 'serviceType')}`,
            ...['internal', 'public', 'admin'].map(
              (iface) =>
                `openstack endpoint list --service ${catalogName} --interface ${iface} -f value -c ID | grep -q . || ` +
                // Quoted: catalogue URLs carry `%(project_id)s`, whose parentheses the shell would parse.
                `openstack endpoint create --region "$OS_REGION_NAME" ${catalogName} ${iface} '${insideSingleQuotes(url, 'endpointUrl')}'`,
            ),
          ];
    const script = [
      ...catalogue,
      `openstack user create --or-show --domain Default --password "$SERVICE_PASSWORD" ${userName}`,
      `openstack role add --project service --user ${userName} admin`,
    ].join('\n');
    this.job = new JobComponent(this, id, {
      operatorKey: props.operatorKey,
      image: cloud.image('openstackclient'),
      command: [
        '/bin/sh',
        '-ec',
        `openstack project show service || openstack project create --domain Default service\n${script}`,
      ],
      env: keystoneAdminClientEnv(props.keystone),
      extraEnv: [
        envFromSecret('OS_PASSWORD', props.keystone.adminCredentials.ref('password')),
        envFromSecret('SERVICE_PASSWORD', this.credentials.ref('password')),
      ],
    });
    this.job
      .dependsOn(props.keystone.registrationTarget, 'completed')
      .dependsOn(this.credentials, 'completed');
  }

  /** The service user's password, for `[keystone_authtoken] password`. */
  get password(): SecretRef {
    return this.credentials.ref('password');
  }
}
