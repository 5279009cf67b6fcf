/**
 * A user-defined service added to a cloud: an in-house "usage reports" API written the way the
 * built-in OpenStack services are, on the `OpenStackApiService` base class (required inputs, image,
 * configuration schema and validation, database chain, Keystone registration and their edges). Nothing in Stackwright knows about
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
  Cloud,
  COMMON_INPUT_RULES,
  commonInputHints,
  Gnocchi,
  IDependable,
  Keystone,
  KEYSTONE_AUTHTOKEN_SCHEMA,
  MariaDB,
  Memcached,
  OpenStackApiService,
  OpenStackApiServiceDescriptor,
  OpenStackServiceProps,
  OsloSchema,
  Rules,
  SchedulingKey,
  serviceRule,
} from 'stackwright';

/** `keystone`, `database`, `cache`, `config` and `image` come from {@link OpenStackServiceProps}. */
export interface UsageReportsProps extends Omit<OpenStackServiceProps, 'messaging'> {
  /** Where usage is read from, through the catalogue: a runtime edge. @default - none */
  readonly metrics?: IDependable;
  /** Days of reports kept. @default 90 */
  readonly retentionDays?: number;
}

/** The options of reports.conf; the same schema mechanism as the built-in services. */
const REPORTS_CONF_SCHEMA: OsloSchema = {
  DEFAULT: { debug: 'bool', retention_days: 'int' },
  database: { connection: 'secret' },
  ...KEYSTONE_AUTHTOKEN_SCHEMA,
};

const PORT = 9090;

/**
 * What the base class needs to know: image, operator key, configuration schema, required inputs,
 * and the catalogue entry its registration creates and its API serves.
 */
const USAGE_REPORTS: OpenStackApiServiceDescriptor<UsageReportsProps> = {
  image: 'usage-reports',
  appName: 'usagereports',
  // Not in the cloud's registry: an in-house image.
  defaultImage: 'registry.example.com/usage-reports:1.4.0',
  // An in-house service has no operator key of its own: its Jobs run where any operator Job may.
  operatorKey: SchedulingKey.OPERATOR_ANY,
  schema: REPORTS_CONF_SCHEMA,
  configFile: 'reports.conf',
  inputs: commonInputHints('keystone', 'database', 'cache'),
  catalog: { type: 'usage-reports', name: 'usage-reports', port: PORT },
  // Every prop besides `config` and `image`, checked before anything is built; also the known keys.
  props: {
    keystone: COMMON_INPUT_RULES.keystone,
    database: COMMON_INPUT_RULES.database,
    cache: COMMON_INPUT_RULES.cache,
    metrics: serviceRule('the service usage is read from'),
    retentionDays: Rules.count({ min: 1, max: 3650 }),
  },
};

/** The in-house API: its own database, a catalogue entry (`usage-reports`) and Keystone auth. */
export class UsageReports extends OpenStackApiService {
  readonly api: ApiService;

  constructor(scope: Construct, id: string, props: UsageReportsProps) {
    super(scope, id, props, USAGE_REPORTS);
    const retentionDays = props.retentionDays ?? 90;

    // Database chain, Keystone user and catalogue entry, [keystone_authtoken], and their edges.
    const deps = this.dependencies(props, { syncCommand: ['usage-reports', 'migrate'] });
    const conf = this.renderConfig({
      DEFAULT: { debug: false, retention_days: retentionDays },
      ...deps.authtokenConfig,
    });

    // No schedulingKey: the seed has none for it, so the API group key alone, like every such API.
    this.api = this.serveApi({
      command: ['usage-reports', 'serve', '--port', String(PORT)],
      healthPath: '/healthz',
      env: deps.env,
      files: { 'reports.conf': conf },
    });
    deps.gate(this.api);
    if (props.metrics) this.api.dependsOn(props.metrics, 'runtime');
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
