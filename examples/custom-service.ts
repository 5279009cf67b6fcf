/**
 * A user-defined service added to a cloud: an in-house "usage reports" API written with the same
 * building blocks as the OpenStack constructs (Service, ApiService, ServiceDatabase,
 * KeystoneRegistration, oslo.config rendering and validation). Nothing in Stackwright knows about
 * it, yet it gets Yaook scheduling, generated credentials, the graph annotations and the same
 * validation as the built-in services.
 *
 * @example
 * const app = new App();
 * const cloud = referenceCloud(app);
 * addUsageReports(cloud, { keystone, database, cache }); // the cloud's own services
 * app.synth();
 */
import { App } from 'cdk8s';
import { Construct } from 'constructs';
import {
  ApiService,
  CacheEndpoint,
  DatabaseEndpoint,
  KEYSTONE_AUTHTOKEN_SCHEMA,
  keystoneAuthtokenConfig,
  keystoneAuthtokenEnv,
  KeystoneRegistration,
  mergeOslo,
  OsloSchema,
  OsloValues,
  osloProblems,
  renderOslo,
  requireInputs,
  ServiceDatabase,
} from '../constructs/common';
import { MariaDB, Memcached } from '../constructs/infra';
import { Gnocchi, Keystone } from '../constructs/openstack';
import { addCheck, Cloud, Component, IDependable, rangeProblems, Service } from '../lib/model';
import { groupPlacement, SchedulingKey } from '../lib/scheduling';

export interface UsageReportsProps {
  readonly keystone: Keystone;
  readonly database: DatabaseEndpoint;
  readonly cache: CacheEndpoint;
  /** Where usage is read from, through the catalogue: a runtime edge. @default - none */
  readonly metrics?: IDependable;
  /** Days of reports kept. @default 90 */
  readonly retentionDays?: number;
  /** reports.conf overrides; unknown options are rejected. @default - none */
  readonly config?: OsloValues;
  /** @default 'registry.example.com/usage-reports:1.4.0' */
  readonly image?: string;
}

/** The options of reports.conf; the same schema mechanism as the built-in services. */
const REPORTS_CONF_SCHEMA: OsloSchema = {
  DEFAULT: { debug: 'bool', retention_days: 'int' },
  database: { connection: 'secret' },
  ...KEYSTONE_AUTHTOKEN_SCHEMA,
};

const PORT = 9090;

/** The in-house API: its own database, a catalogue entry (`usage-reports`) and Keystone auth. */
export class UsageReports extends Service {
  readonly api: ApiService;

  constructor(scope: Construct, id: string, props: UsageReportsProps) {
    super(scope, id);
    requireInputs(this, props, {
      keystone: 'the Keystone service',
      database: 'a MariaDB or externalDatabase(...)',
      cache: 'a Memcached or externalCache(...)',
    });
    const retentionDays = props.retentionDays ?? 90;
    addCheck(this, () => [
      ...rangeProblems('retentionDays', retentionDays, { min: 1, max: 3650 }),
      ...osloProblems('reports.conf', REPORTS_CONF_SCHEMA, props.config ?? {}),
    ]);
    const image = props.image ?? 'registry.example.com/usage-reports:1.4.0';
    // An in-house service has no operator key of its own: its Jobs run where any operator Job may.
    const operatorKey = SchedulingKey.OPERATOR_ANY;

    const database = new ServiceDatabase(this, 'db', {
      database: props.database,
      operatorKey,
      image,
      syncCommand: ['usage-reports', 'migrate'],
    });
    const registration = new KeystoneRegistration(this, 'ks-register', {
      keystone: props.keystone,
      operatorKey,
      serviceType: 'usage-reports',
      catalogName: 'usage-reports',
      endpointUrl: `http://${this.serviceName}-api:${PORT}`,
    });
    const conf = mergeOslo(
      {
        DEFAULT: { debug: false, retention_days: retentionDays },
        ...keystoneAuthtokenConfig(props.keystone, registration, props.cache),
      },
      props.config,
    );

    this.api = new ApiService(this, 'api', {
      // The seed has no key for it: the API group key, like every API without a key of its own.
      placement: groupPlacement(SchedulingKey.ANY_API),
      image,
      command: ['usage-reports', 'serve', '--port', String(PORT)],
      port: PORT,
      healthPath: '/healthz',
      env: [...database.connectionEnv(), ...keystoneAuthtokenEnv(registration)],
      config: { mountPath: '/etc/usage-reports', files: { 'reports.conf': renderOslo(conf) } },
    });
    this.api
      .dependsOn(database.sync, 'completed')
      .dependsOn(registration.job, 'completed')
      .dependsOn(props.keystone, 'ready')
      .dependsOn(props.database, 'ready')
      .dependsOn(props.cache, 'ready');
    if (props.metrics) this.api.dependsOn(props.metrics, 'runtime');
  }

  protected get entryPoints(): readonly Component[] {
    return [this.api];
  }
}

/** Adds the in-house service to any cloud, wired to that cloud's Keystone, database and cache. */
export function addUsageReports(cloud: Cloud, props: UsageReportsProps, id = 'reports'): UsageReports {
  return new UsageReports(cloud, id, props);
}

/**
 * A small cloud (infrastructure, Keystone, Gnocchi) with the in-house service added next to the
 * built-in ones.
 */
export function cloudWithUsageReports(
  scope: Construct,
  id = 'custom',
  props: Partial<UsageReportsProps> = {},
): Cloud {
  const cloud = new Cloud(scope, id, { namespace: 'openstack' });
  const database = new MariaDB(cloud, 'db');
  const cache = new Memcached(cloud, 'memcached');
  const keystone = new Keystone(cloud, 'keystone', { database, cache });
  const gnocchi = new Gnocchi(cloud, 'gnocchi', { keystone, database, cache });
  addUsageReports(cloud, { keystone, database, cache, metrics: gnocchi, ...props });
  return cloud;
}

if (require.main === module) {
  const app = new App();
  cloudWithUsageReports(app);
  app.synth();
}
