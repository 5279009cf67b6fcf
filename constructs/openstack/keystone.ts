import { Construct } from 'constructs';
import { Rules } from '../../lib/model';
import { commonInputHints, commonInputRules } from '../openstack-kit/input-rules';
import { addCheck, Component } from '../../lib/model';
import { SchedulingKey } from '../../lib/scheduling';
import { ApiService } from '../kube/api-service';
import { ConfigFiles } from '../kube/config-files';
import { CacheEndpoint, DatabaseEndpoint, MessagingEndpoint } from '../openstack-kit/endpoints';
import { GeneratedSecret } from '../kube/generated-secret';
import { JobComponent } from '../kube/job-component';
import { IdentityEndpoint } from '../openstack-kit/endpoints';
import { osloCacheConfig } from '../openstack-kit/oslo-cache';
import { envFromSecret } from '../kube/secret-ref';
import { ServiceDatabase } from '../openstack-kit/service-database';
import { ServiceMessaging } from '../openstack-kit/service-messaging';
import { uwsgiCommand } from '../openstack-kit/uwsgi';
import { OpenStackServiceOptions } from '../openstack-kit/openstack-service';
import { OpenStackApiService, OpenStackApiServiceDescriptor } from '../openstack-kit/openstack-api-service';
import { shown } from '../../lib/graph';
import { CREDENTIAL_ROTATIONS, CredentialKeyRotation, CredentialRotation } from './credential-key-rotation';
import {
  FERNET_ROTATION_HOURS,
  FernetKeyRotation,
  fernetMaxActiveKeys,
  FernetRotationHours,
} from './fernet-key-rotation';

/** Keystone's own defaults of the options the Fernet key count is sized from (`[token]`). */
const TOKEN_EXPIRATION_SECONDS = 3600;
const ALLOW_EXPIRED_WINDOW_SECONDS = 172800;

/** Keystone takes the inputs of every other service but itself. */
export interface KeystoneProps extends OpenStackServiceOptions {
  readonly database: DatabaseEndpoint;
  readonly cache: CacheEndpoint;
  /**
   * Keystone's notifications (project and user events) go to its own vhost here, for a consumer
   * that registers with {@link Keystone.addNotificationConsumer} (Barbican's keystone listener);
   * synthesis fails when nothing consumes them, since their queue would grow without bound.
   * A soft (runtime) dependency: Keystone serves tokens without it.
   * @default - notifications off
   */
  readonly messaging?: MessagingEndpoint;
  /** @default 2 */
  readonly replicas?: number;
  /** Region of the endpoints registered by bootstrap. @default 'RegionOne' */
  readonly region?: string;
  /**
   * How often the Fernet keys rotate, in hours (1, 2, 3, 4, 6, 8, 12 or 24): a CronJob promotes the
   * staged key and stages a new one ({@link FernetKeyRotation}). `[fernet_tokens] max_active_keys`
   * defaults to the fewest keys that keep tokens valid through `[token] expiration` plus
   * `allow_expired_window` of rotations; a smaller value in `config` is refused.
   * @default 24
   */
  readonly fernetRotationHours?: FernetRotationHours;
  /**
   * How often the credential encryption keys (`[credential] key_repository`: what encrypts EC2
   * and TOTP secrets in the database) rotate: a CronJob re-encrypts every credential with the
   * primary key, then promotes the staged key ({@link CredentialKeyRotation}). `never` makes no
   * CronJob.
   * @default 'monthly'
   */
  readonly credentialRotation?: CredentialRotation;
}

const PORT = 5000;
/** The topic Keystone publishes on; its consumers listen on the same one. */
export const KEYSTONE_NOTIFICATION_TOPIC = 'notifications';

const KEYSTONE: OpenStackApiServiceDescriptor<KeystoneProps> = {
  image: 'keystone',
  operatorKey: SchedulingKey.OPERATOR_KEYSTONE,
  catalog: { type: 'identity', name: 'keystone', port: PORT },
  inputs: commonInputHints('database', 'cache'),
  props: {
    ...commonInputRules('database', 'cache', 'messaging'),
    replicas: Rules.count({ min: 1, max: 50 }),
    fernetRotationHours: Rules.oneOf(...FERNET_ROTATION_HOURS),
    credentialRotation: Rules.oneOf(...CREDENTIAL_ROTATIONS),
    // Rendered into other services' configuration and the bootstrap command line.
    region: Rules.given((value, name) =>
      typeof value === 'string' && /^[A-Za-z0-9_.-]{1,255}$/.test(value)
        ? []
        : [
            `${name} ${shown(value)} is not a region id; use letters, digits, '_', '.' and '-', e.g. 'RegionOne'`,
          ],
    ),
  },
  fixedServiceUser: 'Keystone has no service user to rotate (its admin is made by its bootstrap)',
};

/**
 * Keystone, the identity service: fernet and credential keys generated in the cluster, the database
 * chain (credentials, db-init, db-sync), the API behind a Service, and the bootstrap Job that creates
 * the admin user and the identity endpoints. Other services depend on `keystone-api`.
 *
 * @example
 * const keystone = new Keystone(cloud, 'keystone', { database, cache, config: { token: { expiration: 7200 } } });
 */
export class Keystone extends OpenStackApiService implements IdentityEndpoint {
  readonly api: ApiService;
  readonly bootstrap: JobComponent;
  readonly adminCredentials: GeneratedSecret;
  readonly region: string;
  /** Keystone's vhost and user, where its notifications go; present with `messaging`. */
  readonly messaging?: ServiceMessaging;
  private readonly notificationConsumers: Component[] = [];

  constructor(scope: Construct, id: string, props: KeystoneProps) {
    super(scope, id, props, KEYSTONE);
    const { image, operatorKey } = this;
    this.region = props.region ?? 'RegionOne';
    addCheck(this, () => [
      ...(props.messaging && this.notificationConsumers.length === 0
        ? [
            'messaging is set, so Keystone sends notifications, but nothing consumes them (their queue would grow without bound); ' +
              'remove `messaging` from Keystone, or add a consumer such as Barbican with its keystone listener',
          ]
        : []),
    ]);
    if (props.messaging)
      this.messaging = new ServiceMessaging(this, 'mq', { messaging: props.messaging, operatorKey });

    const fernetKeys = new GeneratedSecret(this, 'fernet-setup', {
      operatorKey,
      keys: ['0', '1'],
      format: 'fernet',
      secretName: `${id}-fernet-keys`,
    });
    const maxActiveKeys = this.activeFernetKeys(props.fernetRotationHours ?? 24);
    new FernetKeyRotation(this, 'fernet-rotation', {
      operatorKey,
      secretName: fernetKeys.secretName,
      maxActiveKeys,
      rotationHours: props.fernetRotationHours ?? 24,
    }).dependsOn(fernetKeys, 'completed');
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

    const credentialKeysPath = `${this.configDir}/credential-keys`;
    const keyVolumes = [
      { name: 'fernet-keys', secret: { secretName: fernetKeys.secretName } },
      { name: 'credential-keys', secret: { secretName: credentialKeys.secretName } },
    ];
    const keyMounts = [
      { name: 'fernet-keys', mountPath: `${this.configDir}/fernet-keys`, readOnly: true },
      { name: 'credential-keys', mountPath: credentialKeysPath, readOnly: true },
    ];

    const conf = this.renderConfig({
      DEFAULT: { debug: false, use_stderr: true },
      ...osloCacheConfig(props.cache),
      token: { provider: 'fernet', expiration: TOKEN_EXPIRATION_SECONDS },
      fernet_tokens: { key_repository: `${this.configDir}/fernet-keys`, max_active_keys: maxActiveKeys },
      credential: { key_repository: credentialKeysPath, provider: 'fernet' },
      oslo_messaging_notifications: props.messaging
        ? { driver: ['messagingv2'], topics: [KEYSTONE_NOTIFICATION_TOPIC] }
        : { driver: ['noop'] },
      oslo_middleware: { enable_proxy_headers_parsing: true },
    });

    const database = new ServiceDatabase(this, 'db', {
      database: props.database,
      operatorKey,
      image,
      syncCommand: ['keystone-manage', 'db_sync'],
      volumeMounts: keyMounts,
      volumes: keyVolumes,
    });
    database.sync.dependsOn(fernetKeys, 'completed').dependsOn(credentialKeys, 'completed');

    this.api = this.serveApi({
      schedulingKey: SchedulingKey.IDENTITY_API,
      command: uwsgiCommand('keystone-wsgi-public', PORT),
      healthPath: '/v3',
      replicas: props.replicas,
      env: [...database.connectionEnv(), ...(this.messaging?.transportUrlEnv() ?? [])],
      volumes: keyVolumes,
      volumeMounts: keyMounts,
      files: { 'keystone.conf': conf },
    });
    const config = this.api.config as ConfigFiles;
    this.api
      .dependsOn(database.sync, 'completed')
      .dependsOn(props.database, 'ready')
      .dependsOn(props.cache, 'ready');
    if (props.messaging && this.messaging) {
      this.api.dependsOn(props.messaging, 'runtime').dependsOn(this.messaging.init, 'runtime');
    }

    this.bootstrap = new JobComponent(this, 'bootstrap', {
      operatorKey,
      image,
      command: [
        'keystone-manage',
        'bootstrap',
        '--bootstrap-region-id',
        this.region,
        '--bootstrap-admin-url',
        this.catalogUrl,
        '--bootstrap-internal-url',
        this.catalogUrl,
        '--bootstrap-public-url',
        this.catalogUrl,
      ],
      extraEnv: [
        // keystone-manage reads the password from here when --bootstrap-password is not given: off argv.
        envFromSecret('OS_BOOTSTRAP_PASSWORD', this.adminCredentials.ref('password')),
        ...database.connectionEnv(),
      ],
      volumes: [...keyVolumes, config.volume],
      volumeMounts: [...keyMounts, ...config.mounts],
    });
    this.bootstrap.dependsOn(this.api, 'ready').dependsOn(this.adminCredentials, 'completed');

    const credentialRotation = props.credentialRotation ?? 'monthly';
    if (credentialRotation !== 'never') {
      new CredentialKeyRotation(this, 'credential-rotation', {
        operatorKey,
        rotation: credentialRotation,
        secretName: credentialKeys.secretName,
        image,
        env: database.connectionEnv(),
        // keystone-manage loads the token provider too: it refuses to start without the Fernet keys.
        volumes: [...keyVolumes, config.volume],
        volumeMounts: [...keyMounts, ...config.mounts],
        keysMountPath: credentialKeysPath,
      }).dependsOn(database.sync, 'completed');
    }
  }

  /**
   * The `max_active_keys` Keystone and the rotation use: the user's, or else the fewest rotations
   * every `rotationHours` need (see {@link fernetMaxActiveKeys}) with the token lifetimes in the
   * user's `config`. A user's value below that is refused: tokens would stop validating before they
   * expire.
   */
  private activeFernetKeys(rotationHours: number): number {
    const token = this.userConfig?.token ?? {};
    const expiration = Number(token.expiration ?? TOKEN_EXPIRATION_SECONDS);
    const window = Number(token.allow_expired_window ?? ALLOW_EXPIRED_WINDOW_SECONDS);
    const needed = fernetMaxActiveKeys(expiration, window, rotationHours);
    const configured = this.userConfig?.fernet_tokens?.max_active_keys;
    addCheck(this, () =>
      configured !== undefined && Number(configured) < needed
        ? [
            `config.fernet_tokens.max_active_keys ${shown(configured)} drops keys while tokens signed with them are still accepted ` +
              `(rotation every ${rotationHours} h, [token] expiration ${expiration} s + allow_expired_window ${window} s need ${needed}); ` +
              `set it to at least ${needed}, or remove it to get that default, or rotate less often (fernetRotationHours)`,
          ]
        : [],
    );
    return configured === undefined ? needed : Number(configured);
  }

  /**
   * Registers a component that consumes Keystone's notifications from {@link Keystone.messaging}
   * (topic {@link KEYSTONE_NOTIFICATION_TOPIC}); without one, `messaging` is rejected.
   */
  addNotificationConsumer(consumer: Component): void {
    this.notificationConsumers.push(consumer);
  }

  /** Services register themselves once bootstrap has created the admin user and the identity endpoints. */
  get registrationTarget(): JobComponent {
    return this.bootstrap;
  }

  /** In-cluster identity URL, e.g. `http://keystone-api.openstack.svc:5000/v3`. */
  get authUrl(): string {
    return `${this.api.internalUrl}/v3`;
  }
}
