import {
  COMMON_INPUT_RULES,
  commonInputHints,
  databaseRule,
  messagingRule,
  serviceRule,
} from '../openstack-kit/input-rules';
import { Construct } from 'constructs';
import {
  addCheck,
  Cloud,
  Component,
  IDependable,
  labelKeyProblems,
  rangeProblems,
  Rules,
  shown,
} from '../../lib/model';
import { placement, reservedNodeLabelProblems, SchedulingKey } from '../../lib/scheduling';
import { ApiService } from '../kube/api-service';
import { ConfigDirectory } from '../kube/config-files';
import { DatabaseEndpoint, MessagingEndpoint } from '../openstack-kit/endpoints';
import { JobComponent } from '../kube/job-component';
import { keystoneAuthtokenConfig, keystoneAuthtokenEnv } from '../openstack-kit/keystone-authtoken';
import { KeystoneRegistration } from '../openstack-kit/keystone-registration';
import {
  NODE_CONFIGURED_AGENT_OPTIONS_RULES,
  NodeConfiguredAgent,
  NodeScope,
} from '../openstack-kit/node-config-templates';
import { osloCacheConfig } from '../openstack-kit/oslo-cache';
import { mergeOslo, osloEnvName, osloProblems, OsloValues } from '../openstack-kit/oslo-config';
import { envFromSecret } from '../kube/secret-ref';
import { ServiceDatabase } from '../openstack-kit/service-database';
import { uwsgiCommand } from '../openstack-kit/uwsgi';
import { WorkerService } from '../kube/worker-service';
import { Glance } from './glance';
import { Neutron } from './neutron';
import { NovaCell, NovaCellOptions, NovaCellProps } from './nova-cell';
import {
  LIBVIRT_IMAGE_TAG,
  libvirtDaemon,
  libvirtOptions,
  NovaComputeOptions,
  VirtType,
} from './nova-compute';
import { cellMappingJob } from './nova-cell-mapping';
import { novaCommonConfig, novaServiceCredentials, novaUpgradeCheckEnv } from './nova-config';
import { novaDatabase, NovaDatabaseProps } from './nova-database';
import { OpenStackServiceProps } from '../openstack-kit/openstack-service';
import { OpenStackApiService, OpenStackApiServiceDescriptor } from '../openstack-kit/openstack-api-service';
import { Placement } from './placement';

/** `config` applies to every Nova component, nova-compute included (under `compute.config`). */
export interface NovaProps extends OpenStackServiceProps {
  /** The server of the API, cell0 and cell1 databases (and of further cells unless they name their own). */
  readonly database: DatabaseEndpoint;
  /** The message bus of the API and of cell 1 (and of further cells unless they name their own). */
  readonly messaging: MessagingEndpoint;
  /** The scheduler waits for Placement; the others reach it at run time. */
  readonly placement: Placement;
  readonly glance: Glance;
  /** nova-compute needs the node's OVN agent; Neutron's API is reached at run time. */
  readonly neutron: Neutron;
  /** Cinder, when the cloud has it: a runtime edge (volumes are attached through the catalogue). @default - none */
  readonly cinder?: IDependable;
  /**
   * Compute cells: a number (`cells: 3` is cell1..cell3 on Nova's database and message bus), or one
   * entry per cell with its own infrastructure. Cell 1 holds the super-conductor role; every
   * further cell adds its own conductor, database (with its chain) and vhost, VNC proxy and
   * nova-compute. With several cells, hypervisors join cell N (N >= 2) by the label
   * `cellNodeLabel=cellN`; unlabelled hypervisors are in cell 1.
   * @default 1
   */
  readonly cells?: number | readonly NovaCellOptions[];
  /** @default 'nova.stackwright.io/cell' */
  readonly cellNodeLabel?: string;
  /** @default 2 */
  readonly apiReplicas?: number;
  /** @default 2 */
  readonly metadataReplicas?: number;
  /** @default 2 */
  readonly schedulerReplicas?: number;
  /** Conductors of cell 1 (the others: `NovaCellOptions.conductorReplicas`). @default 2 */
  readonly conductorReplicas?: number;
  /** @default 2 */
  readonly vncReplicas?: number;
  /** nova-compute and libvirt. @default - default configuration on every hypervisor */
  readonly compute?: NovaComputeOptions;
}

const API_PORT = 8774;
const METADATA_PORT = 8775;
const MAX_CELLS = 100;

const NOVA: OpenStackApiServiceDescriptor<NovaProps> = {
  image: 'nova',
  operatorKey: SchedulingKey.OPERATOR_NOVA,
  catalog: { type: 'compute', name: 'nova', port: API_PORT, path: '/v2.1' },
  inputs: {
    ...commonInputHints('keystone', 'database', 'messaging', 'cache'),
    placement: 'the Placement service (new Placement(...))',
    glance: 'the Glance service',
    neutron: 'the Neutron service',
  },
  props: {
    ...COMMON_INPUT_RULES,
    placement: serviceRule('the Placement service'),
    glance: serviceRule('the Glance service'),
    neutron: serviceRule('the Neutron service'),
    cinder: serviceRule('the Cinder service'),
    // A count or a list; its range is checked at synthesis (cellProblems), the count before any cell is built.
    cells: Rules.either(
      Array.isArray,
      Rules.list(
        Rules.object<NovaCellOptions>({
          database: databaseRule,
          messaging: messagingRule,
          conductorReplicas: Rules.checkedElsewhere(),
        }),
      ),
      Rules.checkedElsewhere(),
    ),
    // At the boundary: the cells are placed with this label while Nova is built.
    cellNodeLabel: Rules.given((value, name) =>
      typeof value === 'string'
        ? [...labelKeyProblems(value, name), ...reservedNodeLabelProblems([value], name)]
        : [`${name} must be a string, got ${shown(value)}`],
    ),
    apiReplicas: Rules.count({ min: 1, max: 20 }),
    metadataReplicas: Rules.count({ min: 1, max: 20 }),
    schedulerReplicas: Rules.checkedElsewhere(),
    conductorReplicas: Rules.checkedElsewhere(),
    vncReplicas: Rules.count({ min: 1, max: 20 }),
    compute: Rules.object<NovaComputeOptions>({
      ...NODE_CONFIGURED_AGENT_OPTIONS_RULES,
      forcedDownscale: Rules.bool(),
      libvirtImage: Rules.image(),
      image: Rules.image(),
      virtType: Rules.oneOf('kvm', 'qemu'),
    }),
  },
};

/**
 * Nova, the compute service, in cells v2: the API (`nova-api`), the metadata API, the scheduler,
 * the super-conductor in cell 1, and per cell a conductor, a VNC proxy, a database with its chain
 * and a vhost; libvirt and nova-compute on every hypervisor; the API, cell0 and cell databases;
 * a cell-mapping Job that records cell0 and every cell in the API database, and a cell-setup Job
 * (`discover_hosts`) once the API and every nova-compute are ready.
 *
 * nova-compute runs where libvirt and Neutron's OVN agent run (same-node edges) and only on nodes
 * without pending OVN maintenance. Its configuration can differ per node (`compute.configTemplates`).
 *
 * @example
 * new Nova(cloud, 'nova', {
 *   keystone, database, messaging, cache, placement, glance, neutron, cells: 2,
 *   compute: { configTemplates: [{ nodeSelector: { 'example.com/gpu': 'true' }, config: { DEFAULT: { cpu_allocation_ratio: 4 } } }] },
 * });
 */
export class Nova extends OpenStackApiService {
  readonly api: ApiService;
  readonly metadata: ApiService;
  readonly scheduler: WorkerService;
  /** The cells in order; cell 1's conductor is also the super-conductor. */
  readonly cells: readonly NovaCell[];
  readonly libvirt: Component;
  /** nova-compute of every cell (one agent per cell), for same-node dependants such as Ceilometer's compute agent. */
  readonly compute: readonly NodeConfiguredAgent[];
  readonly apiDatabase: ServiceDatabase;
  readonly cell0Database: ServiceDatabase;
  /** Records cell0 and every cell (database and transport URL) in the API database. */
  readonly cellMapping: JobComponent;
  /** `nova-manage cell_v2 discover_hosts`: maps the hypervisors to their cells. */
  readonly cellSetup: JobComponent;
  readonly registration: KeystoneRegistration;

  constructor(scope: Construct, id: string, props: NovaProps) {
    super(scope, id, props, NOVA);
    const cellOptions = novaCellOptions(props.cells);
    addCheck(this, () => this.propsProblems(props, cellOptions));

    // The Keystone registration, then the databases: cell 1's, the API database's, cell0's and
    // the further cells' (each cell's is handed to its cell).
    this.registration = new KeystoneRegistration(this, 'ks-register', {
      keystone: props.keystone,
      operatorKey: this.operatorKey,
      ...this.registrationProps,
    });
    const cellDatabase = (
      index: number,
      options: Pick<NovaDatabaseProps, 'syncEnv' | 'upgradeTemplate'> = {},
    ) =>
      this.databaseChain(
        cellOptions[index].database ?? props.database,
        `cell${index + 1}-db`,
        `nova_cell${index + 1}`,
        options,
      );
    const firstCellDatabase = cellDatabase(0);
    // The API database's sync Job is the template of Nova's upgrade Jobs (docs/upgrades.md): their
    // `nova-manage db sync` and online data migrations work on `[database]`, cell 1's, besides
    // cell0 and the API database, and `nova-status upgrade check` reads more still.
    this.apiDatabase = this.databaseChain(props.database, 'api-db', 'nova_api', {
      api: true,
      syncEnv: [
        ...firstCellDatabase.connectionEnv('CELL1_DB_PASSWORD'),
        ...novaUpgradeCheckEnv(props.keystone, this.registration),
      ],
    });
    this.cell0Database = this.databaseChain(props.database, 'cell0-db', 'nova_cell0');
    // Each further cell's sync Job is the template of its own upgrade Jobs, which those steps do
    // not reach: its online data migrations also read the API database.
    const cellDatabases = [
      firstCellDatabase,
      ...cellOptions.slice(1).map((_, rest) =>
        cellDatabase(rest + 1, {
          syncEnv: this.apiDatabase.connectionEnv('API_DB_PASSWORD'),
          upgradeTemplate: 'cell-schema-sync',
        }),
      ),
    ];

    // Configuration: the control plane's nova.conf, and the hypervisors'.
    const serviceCredentials = novaServiceCredentials(this.registration);
    const common = novaCommonConfig(props.keystone);
    const controlFiles = this.controlPlaneFiles(props, common);
    const virtType = props.compute?.virtType ?? 'kvm';
    const computeConfig = computeNovaConf(this.configWith(common), virtType);

    // Components: libvirt, the cells (conductor, VNC proxy, nova-compute), their mapping, then the
    // API level (super-conductor, API, metadata API, scheduler) and host discovery.
    this.libvirt = libvirtDaemon(this, 'libvirt', {
      image: props.compute?.libvirtImage ?? Cloud.of(this).image('libvirt', LIBVIRT_IMAGE_TAG),
      forcedDownscale: props.compute?.forcedDownscale ?? false,
      virtType,
    });
    this.cells = this.buildCells(props, cellOptions, cellDatabases, {
      controlFiles,
      computeConfig,
      serviceCredentials,
    });
    this.compute = this.cells.map((c) => c.compute);
    this.cellMapping = this.mapCells();
    const first = this.cells[0];
    const apiLevel = (component: Component) => this.apiLevelEdges(component, props);
    apiLevel(first.conductor);
    // The API, the metadata API and the scheduler record their services (and read the services
    // of the cells through the mappings) in cell0, the top level's `[database] connection`: without
    // it they fail at start with `No sql_connection parameter is established`.
    const apiEnv = [
      ...this.apiDatabase.connectionEnv('API_DB_PASSWORD'),
      ...this.cell0Database.connectionEnv('CELL0_DB_PASSWORD'),
      ...first.messaging.transportUrlEnv(),
    ];
    const neutron = props.neutron;

    this.api = this.serveApi({
      schedulingKey: SchedulingKey.COMPUTE_API,
      command: uwsgiCommand('nova-api-wsgi', API_PORT),
      healthPath: '/',
      replicas: props.apiReplicas,
      env: [...apiEnv, ...keystoneAuthtokenEnv(this.registration), ...serviceCredentials],
      files: controlFiles.files,
      requests: { cpu: '200m', memory: '512Mi' },
    });
    apiLevel(this.api)
      .dependsOn(props.placement, 'runtime')
      .dependsOn(props.glance, 'runtime')
      .dependsOn(neutron, 'runtime');
    if (props.cinder) this.api.dependsOn(props.cinder, 'runtime');

    this.metadata = new ApiService(this, 'metadata', {
      placement: placement(SchedulingKey.COMPUTE_METADATA_API, SchedulingKey.ANY_API),
      image: this.image,
      command: uwsgiCommand('nova-metadata-wsgi', METADATA_PORT),
      port: METADATA_PORT,
      healthPath: '/',
      replicas: props.metadataReplicas,
      env: [
        ...apiEnv,
        ...keystoneAuthtokenEnv(this.registration),
        ...serviceCredentials,
        envFromSecret(
          osloEnvName('neutron', 'metadata_proxy_shared_secret'),
          neutron.metadataProxySecret.ref('secret'),
        ),
      ],
      config: controlFiles,
    });
    apiLevel(this.metadata).dependsOn(neutron.metadataProxySecret, 'completed').dependsOn(neutron, 'runtime');

    this.scheduler = new WorkerService(this, 'scheduler', {
      placement: placement(SchedulingKey.COMPUTE_NOVA_SCHEDULER, SchedulingKey.COMPUTE_NOVA_ANY_SERVICE),
      image: this.image,
      command: ['nova-scheduler'],
      replicas: props.schedulerReplicas ?? 2,
      connectedTo: [first.messagingEndpoint.port],
      env: [...apiEnv, ...serviceCredentials],
      config: controlFiles,
    });
    apiLevel(this.scheduler).dependsOn(props.placement, 'ready');

    this.cellSetup = new JobComponent(this, 'cell-setup', {
      operatorKey: this.operatorKey,
      image: this.image,
      command: ['nova-manage', 'cell_v2', 'discover_hosts', '--verbose'],
      extraEnv: this.apiDatabase.connectionEnv('API_DB_PASSWORD'),
    });
    this.cellSetup.dependsOn(this.api, 'ready');
    for (const agent of this.compute) this.cellSetup.dependsOn(agent, 'ready');

    this.wireNeutron(neutron);
  }

  /** What only the whole props can tell: the compute config, the cells, the replicas, the OVN agent's keys. */
  private propsProblems(props: NovaProps, cellOptions: readonly NovaCellOptions[]): string[] {
    const compute = props.compute ?? {};
    const neutron = props.neutron;
    return [
      ...osloProblems('compute nova.conf', this.schema, compute.config ?? {}),
      ...(['config', 'compute.config'] as const)
        .filter(
          (name) => (name === 'config' ? props.config : compute.config)?.libvirt?.virt_type !== undefined,
        )
        .map(
          (name) =>
            `${name} sets [libvirt] virt_type; set compute.virtType instead (it also picks the devices libvirt needs)`,
        ),
      ...cellProblems(props.cells),
      ...rangeProblems('schedulerReplicas', props.schedulerReplicas, { min: 1, max: 20 }),
      ...rangeProblems('conductorReplicas', props.conductorReplicas, { min: 1, max: 20 }),
      ...cellOptions.flatMap((c, i) =>
        rangeProblems(`cells[${i}].conductorReplicas`, c.conductorReplicas, { min: 1, max: 20 }),
      ),
      ...(neutron.ovnAgentDependantKeys.includes(SchedulingKey.COMPUTE_HYPERVISOR)
        ? []
        : [
            `nova-compute runs on ${SchedulingKey.COMPUTE_HYPERVISOR} nodes, but ${neutron.node.path}'s OVN agent does not ` +
              `(its dependantKeys are ${neutron.ovnAgentDependantKeys.join(', ') || 'empty'}); add SchedulingKey.COMPUTE_HYPERVISOR to ovnAgent.dependantKeys`,
          ]),
    ];
  }

  /** One database chain (its own user and password) on the cloud's database. */
  private databaseChain(
    database: DatabaseEndpoint,
    chainId: string,
    databaseName: string,
    options: Pick<NovaDatabaseProps, 'api' | 'syncEnv' | 'upgradeTemplate'> = {},
  ): ServiceDatabase {
    return novaDatabase(this, chainId, {
      database,
      operatorKey: this.operatorKey,
      image: this.image,
      databaseName,
      ...options,
    });
  }

  /** The control plane's nova.conf: the common options, oslo.cache and `[keystone_authtoken]`. */
  private controlPlaneFiles(props: NovaProps, common: OsloValues): ConfigDirectory {
    const conf = this.renderConfig(
      mergeOslo(common, {
        // oslo.cache on memcached for the control plane only. nova-compute runs on the host network,
        // where the NetworkPolicies cannot tell a hypervisor from any other source, and memcached
        // has no authentication: rather than open it to every node, the hypervisors keep Nova's
        // in-process cache (without `[cache] enabled`, nova.cache_utils uses an oslo_cache.dict region).
        ...osloCacheConfig(props.cache),
        neutron: { service_metadata_proxy: true },
        oslo_middleware: { enable_proxy_headers_parsing: true },
        scheduler: { discover_hosts_in_cells_interval: 300 },
        ...keystoneAuthtokenConfig(props.keystone, props.cache),
      }),
    );
    // nova-api and nova-metadata read exactly /etc/nova/nova.conf and /etc/nova/api-paste.ini.
    return { mountPath: this.configDir, files: { 'nova.conf': conf } };
  }

  /**
   * One `NovaCell` per cell. With several cells, hypervisors labelled `cellN` (N >= 2) belong to
   * cell N, the rest to cell 1.
   */
  private buildCells(
    props: NovaProps,
    cellOptions: readonly NovaCellOptions[],
    cellDatabases: readonly ServiceDatabase[],
    config: Pick<NovaCellProps, 'controlFiles' | 'computeConfig' | 'serviceCredentials'>,
  ): NovaCell[] {
    const cellNodeLabel = props.cellNodeLabel ?? 'nova.stackwright.io/cell';
    const extraCellLabels = cellOptions.slice(1).map((_, i) => ({ [cellNodeLabel]: `cell${i + 2}` }));
    const cellNodes = (index: number): NodeScope =>
      cellOptions.length === 1
        ? {}
        : index === 0
          ? { excluded: extraCellLabels }
          : { required: extraCellLabels[index - 1] };
    return cellOptions.map(
      (options, index) =>
        new NovaCell(this, `cell${index + 1}`, {
          index,
          serviceName: this.serviceName,
          database: options.database ?? props.database,
          cellDatabase: cellDatabases[index],
          messaging: options.messaging ?? props.messaging,
          conductorReplicas: index === 0 ? props.conductorReplicas : options.conductorReplicas,
          vncReplicas: props.vncReplicas,
          nodes: cellNodes(index),
          image: this.image,
          operatorKey: this.operatorKey,
          schema: this.schema,
          ...config,
          compute: props.compute ?? {},
          // Cell 1's conductor is the super-conductor: it reads the API database too.
          conductorEnv: index === 0 ? this.apiDatabase.connectionEnv('API_DB_PASSWORD') : [],
          peers: {
            keystone: props.keystone,
            cache: props.cache,
            placement: props.placement,
            glance: props.glance,
            neutron: props.neutron,
            ovnAgent: props.neutron.ovnAgent,
            libvirt: this.libvirt,
            cinder: props.cinder,
          },
        }),
    );
  }

  /** The Job recording cell0 and every cell in the API database, after their databases and buses exist. */
  private mapCells(): JobComponent {
    const mapping = cellMappingJob(this, 'cell-mapping', {
      operatorKey: this.operatorKey,
      image: this.image,
      apiDatabase: this.apiDatabase,
      cell0Database: this.cell0Database,
      cells: this.cells,
    });
    mapping.dependsOn(this.apiDatabase.sync, 'completed').dependsOn(this.cell0Database.init, 'completed');
    for (const c of this.cells) {
      mapping.dependsOn(c.database.init, 'completed').dependsOn(c.messaging.init, 'completed');
      c.mappedBy(mapping);
    }
    return mapping;
  }

  /** The edges every control-plane component of the API level shares. */
  private apiLevelEdges(component: Component, props: NovaProps): Component {
    const first = this.cells[0];
    component
      .dependsOn(props.keystone, 'ready')
      .dependsOn(props.cache, 'ready')
      .dependsOn(this.cellMapping, 'completed')
      .dependsOn(this.registration.job, 'completed');
    for (const c of this.cells) component.dependsOn(c.databaseEndpoint, 'ready');
    component.dependsOn(first.messagingEndpoint, 'ready').dependsOn(first.messaging.init, 'completed');
    const syncs = [this.apiDatabase.sync, this.cell0Database.sync, ...this.cells.map((c) => c.database.sync)];
    for (const sync of syncs) component.dependsOn(sync, 'completed');
    return component;
  }

  /**
   * Neutron reaches Nova at run time: port events to the API, instance metadata to the metadata
   * API, which its metadata agent must name.
   */
  private wireNeutron(neutron: Neutron): void {
    neutron.api.dependsOn(this.api, 'runtime');
    neutron.ovnMetadataAgent?.dependsOn(this.metadata, 'runtime');
    addCheck(this, () =>
      neutron.novaMetadataHost === this.metadata.componentName
        ? []
        : [
            `${neutron.node.path}'s metadata agent forwards to ${neutron.novaMetadataHost}, but this Nova's metadata API is ` +
              `${this.metadata.componentName}; pass ovnAgent: { novaMetadataHost: '${this.metadata.componentName}' } to Neutron`,
          ],
    );
  }

  /** cell 1's conductor, the super-conductor. */
  get conductor(): WorkerService {
    return this.cells[0].conductor;
  }
}

/** The options of each cell: the list given, or `cells` empty ones (the count clamped to 1..MAX_CELLS). */
function novaCellOptions(cells: NovaProps['cells']): readonly NovaCellOptions[] {
  if (typeof cells === 'object' && cells.length > 0) return cells;
  // Out-of-range counts are reported by the props check; build one cell so construction gets there.
  const count = typeof cells === 'number' && Number.isFinite(cells) ? Math.trunc(cells) : 1;
  return Array.from({ length: Math.max(1, Math.min(MAX_CELLS, count)) }, () => ({}));
}

/** The hypervisors' nova.conf: the common options with the user's over them, and libvirt's. */
function computeNovaConf(base: OsloValues, virtType: VirtType): OsloValues {
  return mergeOslo(base, {
    DEFAULT: {
      compute_driver: 'libvirt.LibvirtDriver',
      instances_path: '/var/lib/nova/instances',
      // Where nova-compute keeps its node identity (`compute_id`, written on its first start and
      // required on every later one: "No local node identity found, but this is not our first
      // startup on this host. Refusing to start"). The default is the Python package's directory,
      // inside the image: the first restart of the pod (a roll, a rotated credential) lost it and
      // the hypervisor never came back. /var/lib/nova is the host's (nova-compute.ts).
      state_path: '/var/lib/nova',
    },
    ...libvirtOptions(virtType),
    // os-vif ensures br-int through the node's Open vSwitch database, which the OVN agent serves on
    // its unix socket only (os-vif's default is tcp:127.0.0.1:6640).
    os_vif_ovs: { ovsdb_connection: 'unix:/run/openvswitch/db.sock' },
    oslo_concurrency: { lock_path: '/var/lib/nova/tmp' },
    // nova-compute runs as root in a privileged pod: oslo.privsep's helpers (Nova's, os-vif's,
    // os-brick's) start with `sudo privsep-helper`. Through rootwrap they would not start at all:
    // its filters allow no `--config-dir`, which oslo adds for /etc/nova/nova.conf.d.
    workarounds: { disable_rootwrap: true },
  });
}

function cellProblems(cells: NovaProps['cells']): string[] {
  if (cells === undefined) return [];
  if (typeof cells === 'number') return rangeProblems('cells', cells, { min: 1, max: MAX_CELLS });
  return cells.length >= 1 && cells.length <= MAX_CELLS
    ? []
    : [`cells must list between 1 and ${MAX_CELLS} cells, got ${cells.length}`];
}
