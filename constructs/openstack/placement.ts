import { Construct } from 'constructs';
import { commonInputHints, commonInputRules } from '../openstack-kit/input-rules';
import { Rules } from '../../lib/model';
import { SchedulingKey } from '../../lib/scheduling';
import { ApiService } from '../kube/api-service';
import { KeystoneRegistration } from '../openstack-kit/keystone-registration';
import { ServiceDatabase } from '../openstack-kit/service-database';
import { uwsgiCommand } from '../openstack-kit/uwsgi';
import { OpenStackServiceProps } from '../openstack-kit/openstack-service';
import { OpenStackApiService, OpenStackApiServiceDescriptor } from '../openstack-kit/openstack-api-service';

export interface PlacementProps extends Omit<OpenStackServiceProps, 'messaging'> {
  /** @default 2 */
  readonly replicas?: number;
}

const PORT = 8778;

const PLACEMENT: OpenStackApiServiceDescriptor<PlacementProps> = {
  image: 'placement',
  // The label value Stackwright has always written for this service: deployed objects keep it.
  appName: 'placementservice',
  // Yaook runs Placement as part of Nova: there is no placement operator key.
  operatorKey: SchedulingKey.OPERATOR_NOVA,
  catalog: { type: 'placement', name: 'placement', port: PORT },
  inputs: commonInputHints('keystone', 'database', 'cache'),
  props: {
    ...commonInputRules('keystone', 'database', 'cache'),
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
      healthPath: '/',
      replicas: props.replicas,
      env: deps.env,
      files: { 'placement.conf': conf },
    });
    deps.gate(this.api);
  }
}
