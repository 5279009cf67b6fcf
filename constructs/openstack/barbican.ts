import { Construct } from 'constructs';
import { addCheck, Cloud, Component, rangeProblems, Service } from '../../lib/model';
import { placement, SchedulingKey } from '../../lib/scheduling';
import { ApiService } from '../common/api-service';
import { CacheEndpoint, DatabaseEndpoint, MessagingEndpoint } from '../common/endpoints';
import { GeneratedSecret } from '../common/generated-secret';
import { KEYSTONE_AUTHTOKEN_SCHEMA } from '../common/keystone-authtoken';
import { KeystoneRegistration } from '../common/keystone-registration';
import {
  mergeOslo,
  OsloSchema,
  OsloValues,
  osloEnvName,
  osloProblems,
  renderOslo,
} from '../common/oslo-config';
import { openstackServiceDependencies } from '../common/openstack-service-dependencies';
import { commonInputHints, requireInputs } from '../common/required-inputs';
import { envFromSecret } from '../common/secret-ref';
import { uwsgiCommand } from '../common/uwsgi';
import { WorkerService } from '../common/worker-service';
import { Keystone } from './keystone';

export interface BarbicanProps {
  readonly keystone: Keystone;
  readonly database: DatabaseEndpoint;
  /** Notifications from the API (soft) and the keystone listener's queue (gating for the listener). */
  readonly messaging: MessagingEndpoint;
  readonly cache: CacheEndpoint;
  /** @default 2 */
  readonly apiReplicas?: number;
  /**
   * Run the keystone listener, which deletes a project's secrets when Keystone reports the project deleted.
   * @default true
   */
  readonly keystoneListener?: boolean;
  /** barbican.conf options merged over Stackwright's defaults; unknown options are rejected. @default - none */
  readonly config?: OsloValues;
  /** @default the cloud's registry `barbican:<release>` */
  readonly image?: string;
}

/** The barbican.conf sections and options Stackwright knows. */
export const BARBICAN_CONF_SCHEMA: OsloSchema = {
  DEFAULT: {
    debug: 'bool',
    use_stderr: 'bool',
    transport_url: 'secret',
    host_href: 'string',
    max_allowed_secret_in_bytes: 'int',
    max_allowed_request_size_in_bytes: 'int',
  },
  database: { connection: 'secret', max_pool_size: 'int', connection_recycle_time: 'int' },
  secretstore: { enabled_secretstore_plugins: 'list', enable_multiple_secret_stores: 'bool' },
  crypto: { enabled_crypto_plugins: 'list' },
  simple_crypto_plugin: { kek: 'secret', plugin_name: 'string' },
  keystone_notifications: {
    enable: 'bool',
    control_exchange: 'string',
    topic: 'string',
    allow_requeue: 'bool',
    version: 'string',
    thread_pool_size: 'int',
  },
  oslo_messaging_notifications: { driver: 'list', topics: 'list' },
  oslo_middleware: { enable_proxy_headers_parsing: 'bool' },
  oslo_policy: { enforce_scope: 'bool', enforce_new_defaults: 'bool' },
  ...KEYSTONE_AUTHTOKEN_SCHEMA,
};

const PORT = 9311;
const CONFIG_DIR = '/etc/barbican';

/**
 * Barbican, the key manager: the API (secrets encrypted by the simple crypto plugin with a key
 * encryption key generated in the cluster, never in the YAML) and the keystone listener, with the
 * database chain, a RabbitMQ vhost and the `key-manager` catalogue entry.
 *
 * @example
 * new Barbican(cloud, 'barbican', { keystone, database, messaging, cache });
 */
export class Barbican extends Service {
  readonly api: ApiService;
  readonly keystoneListener?: WorkerService;
  /** The key encryption key (`kek`), a Fernet key generated once in the cluster. */
  readonly kek: GeneratedSecret;
  readonly registration: KeystoneRegistration;

  constructor(scope: Construct, id: string, props: BarbicanProps) {
    super(scope, id);
    requireInputs(this, props, commonInputHints('keystone', 'database', 'messaging', 'cache'));
    const cloud = Cloud.of(this);
    const image = props.image ?? cloud.image('barbican');
    const operatorKey = SchedulingKey.OPERATOR_BARBICAN;
    addCheck(this, () => [
      ...osloProblems('barbican.conf', BARBICAN_CONF_SCHEMA, props.config ?? {}),
      ...rangeProblems('apiReplicas', props.apiReplicas, { min: 1, max: 20 }),
    ]);

    // The simple crypto plugin wraps every project key with this one; Fernet format is what it expects.
    this.kek = new GeneratedSecret(this, 'kek-setup', {
      operatorKey,
      keys: ['kek'],
      format: 'fernet',
      secretName: `${id}-kek`,
    });
    const apiUrl = `http://${this.serviceName}-api:${PORT}`;
    const deps = openstackServiceDependencies(this, props, {
      operatorKey,
      image,
      syncCommand: ['barbican-manage', 'db', 'upgrade'],
      registration: { serviceType: 'key-manager', catalogName: 'barbican', endpointUrl: apiUrl },
    });
    this.registration = deps.registration;

    const conf = renderOslo(
      mergeOslo(
        {
          DEFAULT: { debug: false, use_stderr: true, host_href: apiUrl },
          secretstore: { enabled_secretstore_plugins: ['store_crypto'] },
          crypto: { enabled_crypto_plugins: ['simple_crypto'] },
          keystone_notifications: {
            enable: props.keystoneListener ?? true,
            topic: 'notifications',
            allow_requeue: false,
          },
          oslo_messaging_notifications: { driver: ['messagingv2'] },
          oslo_middleware: { enable_proxy_headers_parsing: true },
          ...deps.authtokenConfig,
        },
        props.config,
      ),
    );

    this.api = new ApiService(this, 'api', {
      placement: placement(SchedulingKey.KEY_MANAGER_API, SchedulingKey.ANY_API),
      image,
      command: uwsgiCommand('barbican-wsgi-api', PORT),
      port: PORT,
      healthPath: '/',
      replicas: props.apiReplicas,
      env: [...deps.env, envFromSecret(osloEnvName('simple_crypto_plugin', 'kek'), this.kek.ref('kek'))],
      config: { mountPath: CONFIG_DIR, files: { 'barbican.conf': conf } },
    });
    // Only audit notifications go to RabbitMQ: the API serves secrets without it.
    deps.gate(this.api, { messaging: 'runtime' }).dependsOn(this.kek, 'completed');

    if (props.keystoneListener ?? true) {
      this.keystoneListener = new WorkerService(this, 'keystone-listener', {
        placement: placement(
          SchedulingKey.KEY_MANAGER_BARBICAN_KEYSTONE_LISTENER,
          SchedulingKey.KEY_MANAGER_BARBICAN_ANY_SERVICE,
        ),
        image,
        command: ['barbican-keystone-listener'],
        connectedTo: [props.messaging.port],
        env: [...deps.database.connectionEnv(), ...deps.messaging.transportUrlEnv()],
        config: { mountPath: CONFIG_DIR, files: { 'barbican.conf': conf } },
      });
      this.keystoneListener
        .dependsOn(deps.messaging.init, 'completed')
        .dependsOn(props.messaging, 'ready')
        // It deletes the secrets of deleted projects, so it needs the schema in place.
        .dependsOn(deps.database.sync, 'completed')
        // Keystone only publishes the notifications it consumes; it never calls Keystone to start.
        .dependsOn(props.keystone, 'runtime');
    }
  }

  /** In-cluster URL of the key manager API, e.g. `http://barbican-api:9311`. */
  get internalUrl(): string {
    return this.api.internalUrl;
  }

  protected get entryPoints(): readonly Component[] {
    return [this.api];
  }
}
