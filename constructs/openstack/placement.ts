import { Construct } from 'constructs';
import { COMMON_INPUT_RULES } from '../common/input-rules';
import { Rules } from '../../lib/model';
import { SchedulingKey } from '../../lib/scheduling';
import { ApiService } from '../common/api-service';
import { KeystoneRegistration } from '../common/keystone-registration';
import { commonInputHints } from '../common/required-inputs';
import { ServiceDatabase } from '../common/service-database';
import { uwsgiCommand } from '../common/uwsgi';
import { OpenStackServiceDescriptor, OpenStackServiceProps } from './openstack-service';
import { OpenStackApiService } from './openstack-api-service';

export interface PlacementProps extends Omit<OpenStackServiceProps, 'messaging'> {
  /** @default 2 */
  readonly replicas?: number;
}

const PORT = 8778;

const PLACEMENT: OpenStackServiceDescriptor<PlacementProps> = {
  image: 'placement',
  // The label value Stackwright has always written for this service: deployed objects keep it.
  appName: 'placementservice',
  // Yaook runs Placement as part of Nova: there is no placement operator key.
  operatorKey: SchedulingKey.OPERATOR_NOVA,
  inputs: commonInputHints('keystone', 'database', 'cache'),
  props: {
    keystone: COMMON_INPUT_RULES.keystone,
    database: COMMON_INPUT_RULES.database,
    cache: COMMON_INPUT_RULES.cache,
    replicas: Rules.count({ min: 1, max: 50 }),
  },
};

/**
 * Placement, the resource inventory Nova schedules against: the database chain, the catalogue entry
 * (`placement`) and the API served by uWSGI. placement-api waits for Keystone, the database and
 * memcached to be ready and for db-sync and registration to have completed.
 *
 * @example
 * const placement = new Placement(cloud, 'placement', { keystone, database, cache });
 */
export class Placement extends OpenStackApiService {
  readonly api: ApiService;
  readonly registration: KeystoneRegistration;
  readonly database: ServiceDatabase;

  constructor(scope: Construct, id: string, props: PlacementProps) {
    super(scope, id, props, PLACEMENT);
    const deps = this.dependencies(props, {
      syncCommand: ['placement-manage', 'db', 'sync'],
      connectionOption: { section: 'placement_database', option: 'connection' },
      registration: {
        serviceType: 'placement',
        catalogName: 'placement',
        endpointUrl: this.apiUrl(PORT),
      },
    });
    this.database = deps.database;
    this.registration = deps.registration;
    const conf = this.renderConfig({
      DEFAULT: { debug: false, use_stderr: true },
      placement_database: { sync_on_startup: false },
      oslo_middleware: { enable_proxy_headers_parsing: true },
      ...deps.authtokenConfig,
    });
    this.api = this.serveApi({
      schedulingKey: SchedulingKey.PLACEMENT_API,
      command: uwsgiCommand('placement-api', PORT),
      port: PORT,
      healthPath: '/',
      replicas: props.replicas,
      env: deps.env,
      files: { 'placement.conf': conf },
    });
    deps.gate(this.api);
  }
}
