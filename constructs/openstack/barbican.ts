import { Construct } from 'constructs';
import { COMMON_INPUT_RULES, commonInputHints } from '../openstack-kit/input-rules';
import { addCheck, Rules } from '../../lib/model';
import { placement, SchedulingKey } from '../../lib/scheduling';
import { ApiService } from '../kube/api-service';
import { MessagingEndpoint } from '../openstack-kit/endpoints';
import { GeneratedSecret } from '../kube/generated-secret';
import { KeystoneRegistration } from '../openstack-kit/keystone-registration';
import { osloEnvName } from '../openstack-kit/oslo-config';
import { envFromSecret } from '../kube/secret-ref';
import { uwsgiCommand } from '../openstack-kit/uwsgi';
import { WorkerService } from '../kube/worker-service';
import { Keystone, KEYSTONE_NOTIFICATION_TOPIC } from './keystone';
import { apiServiceDefaults, OpenStackServiceProps } from '../openstack-kit/openstack-service';
import { OpenStackApiService, OpenStackApiServiceDescriptor } from '../openstack-kit/openstack-api-service';

export interface BarbicanProps extends OpenStackServiceProps {
  /** Keystone itself: the keystone listener consumes its notifications. */
  readonly keystone: Keystone;
  /** Barbican's own vhost (the API reaches it at run time). */
  readonly messaging: MessagingEndpoint;
  /** @default 2 */
  readonly apiReplicas?: number;
  /**
   * Run the keystone listener, which deletes a project's secrets when Keystone reports the project
   * deleted. It consumes Keystone's notifications from Keystone's vhost, so Keystone needs `messaging`.
   * @default true when Keystone has `messaging`, else false
   */
  readonly keystoneListener?: boolean;
}

const PORT = 9311;

const BARBICAN: OpenStackApiServiceDescriptor<BarbicanProps> = {
  image: 'barbican',
  operatorKey: SchedulingKey.OPERATOR_BARBICAN,
  catalog: { type: 'key-manager', name: 'barbican', port: PORT },
  inputs: commonInputHints('keystone', 'database', 'messaging', 'cache'),
  props: {
    ...COMMON_INPUT_RULES,
    apiReplicas: Rules.count({ min: 1, max: 20 }),
    keystoneListener: Rules.bool(),
  },
};

/**
 * Barbican, the key manager: the API (secrets encrypted by the simple crypto plugin with a key
 * encryption key generated in the cluster, never in the YAML) and the keystone listener, with the
 * database chain, a RabbitMQ vhost and the `key-manager` catalogue entry.
 *
 * @example
 * new Barbican(cloud, 'barbican', { keystone, database, messaging, cache });
 */
export class Barbican extends OpenStackApiService {
  readonly api: ApiService;
  readonly keystoneListener?: WorkerService;
  /** The key encryption key (`kek`), a Fernet key generated once in the cluster. */
  readonly kek: GeneratedSecret;
  readonly registration: KeystoneRegistration;

  constructor(scope: Construct, id: string, props: BarbicanProps) {
    super(scope, id, props, BARBICAN);
    const { image, operatorKey } = this;
    const keystoneMessaging = props.keystone.messaging;
    const listener = props.keystoneListener ?? keystoneMessaging !== undefined;
    addCheck(this, () => [
      ...(listener && !keystoneMessaging
        ? [
            `keystoneListener consumes Keystone's notifications, but ${props.keystone.node.path} sends none; ` +
              'pass `messaging` to Keystone, or set keystoneListener: false',
          ]
        : []),
    ]);

    // The simple crypto plugin wraps every project key with this one; Fernet format is what it expects.
    this.kek = new GeneratedSecret(this, 'kek-setup', {
      operatorKey,
      keys: ['kek'],
      format: 'fernet',
      secretName: `${id}-kek`,
    });
    const deps = this.dependencies(props, {
      syncCommand: ['barbican-manage', 'db', 'upgrade'],
    });
    this.registration = deps.registration;

    const conf = this.renderConfig(
      apiServiceDefaults({
        DEFAULT: { host_href: this.catalogUrl },
        secretstore: { enabled_secretstore_plugins: ['store_crypto'] },
        crypto: { enabled_crypto_plugins: ['simple_crypto'] },
        keystone_notifications: {
          enable: listener,
          topic: KEYSTONE_NOTIFICATION_TOPIC,
          allow_requeue: false,
        },
        ...deps.authtokenConfig,
      }),
    );

    this.api = this.serveApi({
      schedulingKey: SchedulingKey.KEY_MANAGER_API,
      command: uwsgiCommand('barbican-wsgi-api', PORT),
      healthPath: '/',
      replicas: props.apiReplicas,
      env: [...deps.env, envFromSecret(osloEnvName('simple_crypto_plugin', 'kek'), this.kek.ref('kek'))],
      files: { 'barbican.conf': conf },
    });
    // Only audit notifications go to RabbitMQ: the API serves secrets without it.
    deps.gate(this.api, { messaging: 'runtime' }).dependsOn(this.kek, 'completed');

    if (listener && keystoneMessaging) {
      this.keystoneListener = new WorkerService(this, 'keystone-listener', {
        placement: placement(
          SchedulingKey.KEY_MANAGER_BARBICAN_KEYSTONE_LISTENER,
          SchedulingKey.KEY_MANAGER_BARBICAN_ANY_SERVICE,
        ),
        image,
        command: ['barbican-keystone-listener'],
        connectedTo: [keystoneMessaging.endpoint.port],
        // Its transport is Keystone's vhost, where Keystone's notifications are.
        env: [...deps.database.connectionEnv(), ...keystoneMessaging.transportUrlEnv()],
        config: { mountPath: this.configDir, files: { 'barbican.conf': conf } },
      });
      this.keystoneListener
        .dependsOn(keystoneMessaging.init, 'completed')
        .dependsOn(keystoneMessaging.endpoint, 'ready')
        // It deletes the secrets of deleted projects, so it needs the schema in place.
        .dependsOn(deps.database.sync, 'completed')
        // Keystone only publishes the notifications it consumes; it never calls Keystone to start.
        .dependsOn(props.keystone, 'runtime');
      props.keystone.addNotificationConsumer(this.keystoneListener);
    }
  }
}
