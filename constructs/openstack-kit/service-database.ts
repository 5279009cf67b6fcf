import { k8s } from 'cdk8s-plus-33';
import { Construct } from 'constructs';
import { UpgradeTemplateRole } from '../../lib/graph';
import { Cloud, Service } from '../../lib/model';
import { SchedulingKey } from '../../lib/scheduling';
import { DatabaseEndpoint } from './endpoints';
import { GeneratedSecret } from '../kube/generated-secret';
import { JobComponent } from '../kube/job-component';
import { osloEnvName } from './oslo-config';
import { envFromSecret, SecretRef } from '../kube/secret-ref';

export interface ServiceDatabaseProps {
  readonly database: DatabaseEndpoint;
  /** The service's operator key: its Jobs are scheduled with it. */
  readonly operatorKey: SchedulingKey;
  /** @default the service name, with '-' replaced by '_' */
  readonly databaseName?: string;
  /** The image that runs the service's schema migration. */
  readonly image: string;
  /** The schema migration command, e.g. `['keystone-manage', 'db_sync']`. */
  readonly syncCommand: string[];
  /** Config files the migration needs (mounted as for the service). @default - none */
  readonly volumes?: k8s.Volume[];
  readonly volumeMounts?: k8s.VolumeMount[];
  /**
   * The oslo.config option that holds the connection URL, for services that do not use
   * `[database] connection` (Gnocchi's indexer reads `[indexer] url`).
   * @default { section: 'database', option: 'connection' }
   */
  readonly connectionOption?: { readonly section: string; readonly option: string };
  /**
   * More environment for the schema-sync Job. An upgrade's checks and migrations run in Jobs made
   * from it (docs/upgrades.md), and some read more than the database: Nova's
   * `nova-status upgrade check` asks Placement for its version with `[placement]`'s credentials.
   * @default - the connection only
   */
  readonly syncEnv?: k8s.EnvVar[];
  /**
   * What an upgrade derives from the sync Job (docs/upgrades.md): `schema-sync`, the service's
   * migration, or `cell-schema-sync`, a further cell's that the service's own steps do not reach
   * (Nova's cells 2 and up).
   * @default 'schema-sync'
   */
  readonly upgradeTemplate?: Extract<UpgradeTemplateRole, 'schema-sync' | 'cell-schema-sync'>;
}

/**
 * The database chain every OpenStack service has: a generated password (`<svc>-db-credentials`),
 * a Job creating the database and user on the server (`<svc>-db-init`), and the schema migration
 * (`<svc>-db-sync`). Dependants wait on `sync` with a `completed` edge; pods read the connection
 * URL through {@link connectionEnv}, which composes it from the Secret at run time.
 */
export class ServiceDatabase extends Construct {
  readonly credentials: GeneratedSecret;
  readonly init: JobComponent;
  readonly sync: JobComponent;
  readonly databaseName: string;
  private readonly database: DatabaseEndpoint;
  private readonly connectionEnvName: string;

  constructor(scope: Construct, id: string, props: ServiceDatabaseProps) {
    super(scope, id);
    const cloud = Cloud.of(this);
    this.database = props.database;
    const option = props.connectionOption ?? { section: 'database', option: 'connection' };
    this.connectionEnvName = osloEnvName(option.section, option.option);
    this.databaseName = props.databaseName ?? Service.nameFor(scope).replace(/-/g, '_');
    this.credentials = new GeneratedSecret(this, `${id}-credentials`, {
      operatorKey: props.operatorKey,
      keys: ['password'],
      secretName: `${Service.nameFor(scope)}-${id}`,
    });
    const user = this.databaseName;
    const sql = [
      `CREATE DATABASE IF NOT EXISTS \\\`${this.databaseName}\\\`;`,
      `CREATE USER IF NOT EXISTS '${user}'@'%' IDENTIFIED BY '$USER_PASSWORD';`,
      `ALTER USER '${user}'@'%' IDENTIFIED BY '$USER_PASSWORD';`,
      `GRANT ALL PRIVILEGES ON \\\`${this.databaseName}\\\`.* TO '${user}'@'%';`,
    ];
    this.init = new JobComponent(this, `${id}-init`, {
      operatorKey: props.operatorKey,
      image: props.database.clientImage ?? cloud.image('mariadb', '11.4'),
      // The client reads the admin password from MYSQL_PWD and the statements (with the user's
      // password) from a here-document on stdin: neither is on the client's argv.
      command: [
        '/bin/sh',
        '-ec',
        ['mariadb -h "$DB_HOST" -P "$DB_PORT" -u root <<SQL', ...sql, 'SQL'].join('\n'),
      ],
      env: { DB_HOST: props.database.host, DB_PORT: String(props.database.port) },
      secretEnv: {
        MYSQL_PWD: props.database.adminPassword,
        USER_PASSWORD: this.credentials.ref('password'),
      },
    });
    this.init.dependsOn(props.database, 'ready').dependsOn(this.credentials, 'completed');
    this.sync = new JobComponent(this, `${id}-sync`, {
      operatorKey: props.operatorKey,
      image: props.image,
      command: props.syncCommand,
      volumes: props.volumes,
      volumeMounts: props.volumeMounts,
      extraEnv: [...this.connectionEnv(), ...(props.syncEnv ?? [])],
      upgradeTemplate: props.upgradeTemplate ?? 'schema-sync',
    });
    this.sync.dependsOn(this.init, 'completed');
  }

  /** The password Secret of the service's database user. */
  get password(): SecretRef {
    return this.credentials.ref('password');
  }

  /**
   * Environment giving oslo.config `[database] connection` (or `connectionOption`) without a literal password: the password
   * comes from the Secret and Kubernetes expands `$(DB_PASSWORD)` when the pod starts.
   */
  connectionEnv(passwordVariable = 'DB_PASSWORD'): k8s.EnvVar[] {
    return [
      envFromSecret(passwordVariable, this.password),
      { name: this.connectionEnvName, value: this.connectionUrl(passwordVariable) },
    ];
  }

  /**
   * The connection URL with the password as `$(<passwordVariable>)`, for pods that need several
   * databases (Nova's conductor and cell mapping): each gets its own password variable, which must
   * be defined before the variable holding the URL. `databaseName` names another database for the
   * same user and server (the one `nova-manage cell_v2 map_cell0` derives cell0's from).
   */
  connectionUrl(passwordVariable = 'DB_PASSWORD', databaseName = this.databaseName): string {
    return `mysql+pymysql://${this.databaseName}:$(${passwordVariable})@${this.database.host}:${this.database.port}/${databaseName}?charset=utf8`;
  }
}
