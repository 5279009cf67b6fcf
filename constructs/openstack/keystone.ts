import { Construct } from 'constructs';
import { addCheck, Cloud, Component, Service } from '../../lib/model';
import { placement, SchedulingKey } from '../../lib/scheduling';
import { ApiService } from '../common/api-service';
import { ConfigFiles } from '../common/config-files';
import { CacheEndpoint, DatabaseEndpoint, MessagingEndpoint } from '../common/endpoints';
import { GeneratedSecret } from '../common/generated-secret';
import { JobComponent } from '../common/job-component';
import { IdentityEndpoint } from '../common/keystone-registration';
import { osloCacheConfig } from '../common/oslo-cache';
import { mergeOslo, OsloSchema, OsloValues, osloProblems, renderOslo } from '../common/oslo-config';
import { envFromSecret } from '../common/secret-ref';
import { ServiceDatabase } from '../common/service-database';

export interface KeystoneProps {
  readonly database: DatabaseEndpoint;
  readonly cache: CacheEndpoint;
  /** Notifications go here when given; a soft (runtime) dependency. @default - notifications off */
  readonly messaging?: MessagingEndpoint;
  /** @default 2 */
  readonly replicas?: number;
  /** keystone.conf options merged over Stackwright's defaults; unknown options are rejected. @default - none */
  readonly config?: OsloValues;
  /** @default the cloud's registry `keystone:<release>` */
  readonly image?: string;
  /** Region of the endpoints registered by bootstrap. @default 'RegionOne' */
  readonly region?: string;
}

/** The keystone.conf options Stackwright knows; a user override outside this list is an error. */
export const KEYSTONE_CONF_SCHEMA: OsloSchema = {
  DEFAULT: { debug: 'bool', use_stderr: 'bool', max_token_size: 'int', public_endpoint: 'string' },
  database: { connection: 'secret', max_pool_size: 'int', connection_recycle_time: 'int' },
  cache: { enabled: 'bool', backend: 'string', memcache_servers: 'list', expiration_time: 'int' },
  token: { provider: 'string', expiration: 'int', caching: 'bool' },
  fernet_tokens: { key_repository: 'string', max_active_keys: 'int' },
  credential: { key_repository: 'string', provider: 'string' },
  identity: { driver: 'string', max_password_length: 'int' },
  oslo_messaging_notifications: { driver: 'list', topics: 'list' },
  oslo_middleware: { enable_proxy_headers_parsing: 'bool' },
};

const PORT = 5000;
const CONFIG_DIR = '/etc/keystone';

/**
 * Keystone, the identity service: fernet and credential keys generated in the cluster, the database
 * chain (credentials, db-init, db-sync), the API behind a Service, and the bootstrap Job that creates
 * the admin user and the identity endpoints. Other services depend on `keystone-api`.
 *
 * @example
 * const keystone = new Keystone(cloud, 'keystone', { database, cache, config: { token: { expiration: 7200 } } });
 */
export class Keystone extends Service implements IdentityEndpoint {
  readonly api: ApiService;
  readonly bootstrap: JobComponent;
  readonly adminCredentials: GeneratedSecret;
  readonly region: string;

  constructor(scope: Construct, id: string, props: KeystoneProps) {
    super(scope, id);
    const cloud = Cloud.of(this);
    const image = props.image ?? cloud.image('keystone');
    const operatorKey = SchedulingKey.OPERATOR_KEYSTONE;
    this.region = props.region ?? 'RegionOne';
    addCheck(this, () => osloProblems('keystone.conf', KEYSTONE_CONF_SCHEMA, props.config ?? {}));

    const fernetKeys = new GeneratedSecret(this, 'fernet-setup', {
      operatorKey,
      keys: ['0', '1'],
      format: 'fernet',
      secretName: `${id}-fernet-keys`,
    });
    const credentialKeys = new GeneratedSecret(this, 'credential-setup', {
      operatorKey,
      keys: ['0', '1'],
      format: 'fernet',
      secretName: `${id}-credential-keys`,
    });
    this.adminCredentials = new GeneratedSecret(this, 'admin-credentials', {
      operatorKey,
      keys: ['password'],
    });

    const keyVolumes = [
      { name: 'fernet-keys', secret: { secretName: fernetKeys.secretName } },
      { name: 'credential-keys', secret: { secretName: credentialKeys.secretName } },
    ];
    const keyMounts = [
      { name: 'fernet-keys', mountPath: `${CONFIG_DIR}/fernet-keys`, readOnly: true },
      { name: 'credential-keys', mountPath: `${CONFIG_DIR}/credential-keys`, readOnly: true },
    ];

    const conf = mergeOslo(
      {
        DEFAULT: { debug: false, use_stderr: true },
        ...osloCacheConfig(props.cache),
        token: { provider: 'fernet', expiration: 3600 },
        fernet_tokens: { key_repository: `${CONFIG_DIR}/fernet-keys`, max_active_keys: 3 },
        credential: { key_repository: `${CONFIG_DIR}/credential-keys`, provider: 'fernet' },
        oslo_messaging_notifications: { driver: props.messaging ? ['messagingv2'] : ['noop'] },
        oslo_middleware: { enable_proxy_headers_parsing: true },
      },
      props.config,
    );

    const database = new ServiceDatabase(this, 'db', {
      database: props.database,
      operatorKey,
      image,
      syncCommand: ['keystone-manage', 'db_sync'],
      volumeMounts: keyMounts,
      volumes: keyVolumes,
    });
    database.sync.dependsOn(fernetKeys, 'completed').dependsOn(credentialKeys, 'completed');

    this.api = new ApiService(this, 'api', {
      placement: placement(SchedulingKey.IDENTITY_API, SchedulingKey.ANY_API),
      image,
      port: PORT,
      healthPath: '/v3',
      replicas: props.replicas,
      env: database.connectionEnv(),
      volumes: keyVolumes,
      volumeMounts: keyMounts,
      config: { mountPath: CONFIG_DIR, files: { 'keystone.conf': renderOslo(conf) } },
    });
    const config = this.api.config as ConfigFiles;
    this.api
      .dependsOn(database.sync, 'completed')
      .dependsOn(props.database, 'ready')
      .dependsOn(props.cache, 'ready');
    if (props.messaging) this.api.dependsOn(props.messaging, 'runtime');

    this.bootstrap = new JobComponent(this, 'bootstrap', {
      operatorKey,
      image,
      command: [
        'keystone-manage',
        'bootstrap',
        '--bootstrap-password',
        '$(ADMIN_PASSWORD)',
        '--bootstrap-region-id',
        this.region,
        '--bootstrap-admin-url',
        this.api.internalUrl,
        '--bootstrap-internal-url',
        this.api.internalUrl,
        '--bootstrap-public-url',
        this.api.internalUrl,
      ],
      extraEnv: [
        envFromSecret('ADMIN_PASSWORD', this.adminCredentials.ref('password')),
        ...database.connectionEnv(),
      ],
      volumes: [...keyVolumes, config.volume],
      volumeMounts: [...keyMounts, config.mount],
    });
    this.bootstrap.dependsOn(this.api, 'ready').dependsOn(this.adminCredentials, 'completed');
  }

  /** Services register themselves once bootstrap has created the admin user and the identity endpoints. */
  get registrationTarget(): JobComponent {
    return this.bootstrap;
  }

  /** In-cluster identity URL, e.g. `http://keystone-api:5000/v3`. */
  get authUrl(): string {
    return `${this.api.internalUrl}/v3`;
  }

  protected get entryPoints(): readonly Component[] {
    return [this.api];
  }
}
