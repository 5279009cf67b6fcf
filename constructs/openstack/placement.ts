import { Construct } from 'constructs';
import { addCheck, Cloud, Component, Service } from '../../lib/model';
import { placement, SchedulingKey } from '../../lib/scheduling';
import { ApiService } from '../common/api-service';
import { CacheEndpoint, DatabaseEndpoint } from '../common/endpoints';
import { KeystoneRegistration } from '../common/keystone-registration';
import { openstackOptionSchema } from '../common/openstack-option-schema';
import { mergeOslo, OsloValues, osloProblems, renderOslo } from '../common/oslo-config';
import { openstackServiceDependencies } from '../common/openstack-service-dependencies';
import { commonInputHints, requireInputs } from '../common/required-inputs';
import { ServiceDatabase } from '../common/service-database';
import { uwsgiCommand } from '../common/uwsgi';
import { Keystone } from './keystone';

export interface PlacementServiceProps {
  readonly keystone: Keystone;
  readonly database: DatabaseEndpoint;
  readonly cache: CacheEndpoint;
  /** @default 2 */
  readonly replicas?: number;
  /** placement.conf options merged over Stackwright's defaults; unknown options are rejected. @default - none */
  readonly config?: OsloValues;
  /** @default the cloud's registry `placement:<release>` */
  readonly image?: string;
}

const PORT = 8778;
const CONFIG_DIR = '/etc/placement';

/**
 * Placement, the resource inventory Nova schedules against: the database chain, the catalogue entry
 * (`placement`) and the API served by uWSGI. placement-api waits for Keystone, the database and
 * memcached to be ready and for db-sync and registration to have completed.
 *
 * Named `PlacementService` because the package root also exports the scheduling `Placement` type.
 *
 * @example
 * const placementService = new PlacementService(cloud, 'placement', { keystone, database, cache });
 */
export class PlacementService extends Service {
  readonly api: ApiService;
  readonly registration: KeystoneRegistration;
  readonly database: ServiceDatabase;

  constructor(scope: Construct, id: string, props: PlacementServiceProps) {
    super(scope, id);
    requireInputs(this, props, commonInputHints('keystone', 'database', 'cache'));
    const cloud = Cloud.of(this);
    const image = props.image ?? cloud.image('placement');
    const operatorKey = SchedulingKey.OPERATOR_NOVA; // Yaook runs Placement as part of Nova: no placement operator key
    const schema = openstackOptionSchema(this, 'placement');
    addCheck(this, () => osloProblems('placement.conf', schema, props.config ?? {}));

    const deps = openstackServiceDependencies(this, props, {
      operatorKey,
      image,
      syncCommand: ['placement-manage', 'db', 'sync'],
      connectionOption: { section: 'placement_database', option: 'connection' },
      registration: {
        serviceType: 'placement',
        catalogName: 'placement',
        endpointUrl: `http://${this.serviceName}-api:${PORT}`,
      },
    });
    this.database = deps.database;
    this.registration = deps.registration;
    const conf = mergeOslo(
      {
        DEFAULT: { debug: false, use_stderr: true },
        placement_database: { sync_on_startup: false },
        oslo_middleware: { enable_proxy_headers_parsing: true },
        ...deps.authtokenConfig,
      },
      props.config,
    );
    this.api = new ApiService(this, 'api', {
      placement: placement(SchedulingKey.PLACEMENT_API, SchedulingKey.ANY_API),
      image,
      command: uwsgiCommand('placement-api', PORT),
      port: PORT,
      healthPath: '/',
      replicas: props.replicas,
      env: deps.env,
      config: { mountPath: CONFIG_DIR, files: { 'placement.conf': renderOslo(conf, schema) } },
    });
    deps.gate(this.api);
  }

  /** In-cluster URL of the placement API, e.g. `http://placement-api:8778`. */
  get internalUrl(): string {
    return this.api.internalUrl;
  }

  protected get entryPoints(): readonly Component[] {
    return [this.api];
  }
}
