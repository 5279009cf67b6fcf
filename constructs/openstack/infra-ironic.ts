import { k8s } from 'cdk8s-plus-33';
import { COMMON_INPUT_RULES, commonInputHints, serviceRule } from '../openstack-kit/input-rules';
import { Construct } from 'constructs';
import { addCheck, Cloud, Component, IDependable, rangeProblems, required, Rules } from '../../lib/model';
import { placement, SchedulingKey } from '../../lib/scheduling';
import { ApiService } from '../kube/api-service';
import { MessagingEndpoint } from '../openstack-kit/endpoints';
import { JobComponent } from '../kube/job-component';
import { keystoneAdminClientEnv } from '../openstack-kit/keystone-admin-job';
import { KeystoneRegistration } from '../openstack-kit/keystone-registration';
import { serviceUserAuthConfig, serviceUserCredentialsEnv } from '../openstack-kit/keystone-service-user';
import { OsloValues, osloEnvName } from '../openstack-kit/oslo-config';
import { DependencyGateOptions } from '../openstack-kit/openstack-service-dependencies';
import { uwsgiCommand } from '../openstack-kit/uwsgi';
import { WorkerService } from '../kube/worker-service';
import { apiServiceDefaults, OpenStackServiceProps } from '../openstack-kit/openstack-service';
import { OpenStackApiService, OpenStackApiServiceDescriptor } from '../openstack-kit/openstack-api-service';

/** How often the conductor's periodic tasks run, in seconds; 0 turns a task off. */
export interface IronicPeriodicTaskSpacing {
  /** Sync every node's power state from its BMC into the database (`sync_power_state_interval`). @default 60 */
  readonly syncPowerState?: number;
  /** Look for deployments and cleanings that timed out (`check_provision_state_interval`). @default 60 */
  readonly checkProvisionState?: number;
  /** Take over nodes remapped to this conductor when conductors join or leave (`sync_local_state_interval`). @default 180 */
  readonly syncLocalState?: number;
}

export interface IronicConductorOptions {
  /** Conductor pods; nodes are spread over them by consistent hashing. @default 2 */
  readonly replicas?: number;
  /**
   * Size of the conductor's worker pool (`[conductor] workers_pool_size`). At least 3: the
   * periodic-task main loop and the keep-alive thread run on the same pool as node tasks.
   * @default 100
   */
  readonly workersPoolSize?: number;
  /** Periodic tasks that may run at once (`[conductor] periodic_max_workers`). @default 8 */
  readonly periodicMaxWorkers?: number;
  /** Spacing of the periodic tasks. @default - Ironic's defaults, see {@link IronicPeriodicTaskSpacing} */
  readonly periodicTaskSpacing?: IronicPeriodicTaskSpacing;
}

/** A Neutron network the conductor moves nodes to while provisioning or cleaning them. */
export interface IronicNetwork {
  readonly name: string;
  /** Created as a flat provider network on this physical network. @default - a project network */
  readonly physicalNetwork?: string;
  /** Creates a subnet with this range. @default - no subnet is created */
  readonly cidr?: string;
}

export interface InfraIronicProps extends OpenStackServiceProps {
  /** RPC between the API and the conductors. */
  readonly messaging: MessagingEndpoint;
  /** Glance, where deploy images come from. @default - none: images are given as URLs */
  readonly glance?: IDependable;
  /** Neutron, for provisioning and cleaning networks. @default - none: nodes stay on a flat network (`noop` network interface) */
  readonly neutron?: IDependable;
  /** Swift (or a Ceph RGW), for temporary image URLs: reached through the catalogue at run time. @default - none */
  readonly swift?: IDependable;
  /**
   * The provisioning and cleaning networks, created in Neutron by a Job before Ironic starts.
   * Only with `neutron`.
   * @default { provisioning: { name: 'ironic-provisioning' } }, cleaning on the provisioning network
   */
  readonly networks?: { readonly provisioning: IronicNetwork; readonly cleaning?: IronicNetwork };
  /** @default 2 */
  readonly apiReplicas?: number;
  /** @default - see {@link IronicConductorOptions} */
  readonly conductor?: IronicConductorOptions;
  /** `[DEFAULT] enabled_hardware_types`. @default ['ipmi', 'redfish'] */
  readonly enabledHardwareTypes?: readonly string[];
}

/** Seed 002: "minimum value for workers_pool_size is now 3: periodic task main loop, keep alive thread and at least one thread for other tasks". */
const MIN_WORKERS_POOL_SIZE = 3;
const WORKERS_POOL_SIZE_WHY =
  'the conductor runs its periodic-task main loop and its keep-alive thread on the same worker pool as node tasks, ' +
  'so it needs one worker for each plus at least one for the work itself';

const PORT = 6385;

/** A finite whole number, whatever its range (checked at synthesis). */
const WHOLE_NUMBER = Rules.count({});

/** A provisioning or cleaning network (its names become shell tokens, checked at synthesis: networkProblems). */
const IRONIC_NETWORK = Rules.object<IronicNetwork>({
  name: required(Rules.nonEmptyText(), "the Neutron network's name"),
  physicalNetwork: Rules.nonEmptyText(),
  cidr: Rules.nonEmptyText(),
});

const IRONIC: OpenStackApiServiceDescriptor<InfraIronicProps> = {
  image: 'ironic',
  // The label value Stackwright has always written for this service: deployed objects keep it.
  appName: 'infraironic',
  operatorKey: SchedulingKey.OPERATOR_INFRA_IRONIC,
  catalog: { type: 'baremetal', name: 'ironic', port: PORT },
  inputs: commonInputHints('keystone', 'database', 'messaging', 'cache'),
  props: {
    ...COMMON_INPUT_RULES,
    glance: serviceRule('the Glance service'),
    neutron: serviceRule('the Neutron service'),
    swift: serviceRule('the object store'),
    networks: Rules.object<NonNullable<InfraIronicProps['networks']>>({
      provisioning: required(IRONIC_NETWORK, '{ name } of the provisioning network'),
      cleaning: IRONIC_NETWORK,
    }),
    apiReplicas: Rules.count({ min: 1, max: 20 }),
    // Whole numbers here, before ironic.conf is rendered from them (NaN would reach the renderer);
    // the ranges, which depend on each other and on config, are checked at synthesis (conductorProblems).
    conductor: Rules.object<IronicConductorOptions>({
      replicas: WHOLE_NUMBER,
      workersPoolSize: WHOLE_NUMBER,
      periodicMaxWorkers: WHOLE_NUMBER,
      periodicTaskSpacing: Rules.object<IronicPeriodicTaskSpacing>({
        syncPowerState: WHOLE_NUMBER,
        checkProvisionState: WHOLE_NUMBER,
        syncLocalState: WHOLE_NUMBER,
      }),
    }),
    enabledHardwareTypes: Rules.list(Rules.nonEmptyText()),
  },
};

/**
 * Ironic for bare-metal infrastructure (Yaook's infra-ironic): the API, the conductors as a
 * StatefulSet (a conductor's host name is its place on the consistent-hash ring that maps nodes to
 * conductors, so stable names avoid needless take-overs on restarts), the database chain, a
 * RabbitMQ vhost, the `baremetal` catalogue entry, and with Neutron a Job that creates the
 * provisioning and cleaning networks.
 *
 * @example
 * new InfraIronic(cloud, 'ironic', {
 *   keystone, database, messaging, cache, glance,
 *   conductor: { workersPoolSize: 50, periodicTaskSpacing: { syncPowerState: 120 } },
 * });
 */
export class InfraIronic extends OpenStackApiService {
  readonly api: ApiService;
  readonly conductor: WorkerService;
  /** Creates the provisioning and cleaning networks; present with `neutron`. */
  readonly networkSetup?: JobComponent;
  readonly registration: KeystoneRegistration;

  constructor(scope: Construct, id: string, props: InfraIronicProps) {
    super(scope, id, props, IRONIC);
    const { image, operatorKey } = this;
    const options = props.conductor ?? {};
    const spacing = options.periodicTaskSpacing ?? {};
    const networks = props.networks ?? { provisioning: { name: 'ironic-provisioning' } };
    const cleaning = networks.cleaning ?? networks.provisioning;

    const deps = this.dependencies(props, {
      syncCommand: ['ironic-dbsync', 'upgrade'],
    });
    this.registration = deps.registration;

    const serviceAuth = (): OsloValues[string] => ({
      ...serviceUserAuthConfig(props.keystone),
      valid_interfaces: ['internal'],
    });
    const authSections = [
      'service_catalog',
      ...(props.glance ? ['glance'] : []),
      ...(props.neutron ? ['neutron'] : []),
      ...(props.swift ? ['swift'] : []),
    ];
    const conductorDefaults: Record<string, number> = {
      workers_pool_size: options.workersPoolSize ?? 100,
      periodic_max_workers: options.periodicMaxWorkers ?? 8,
      sync_power_state_interval: spacing.syncPowerState ?? 60,
      check_provision_state_interval: spacing.checkProvisionState ?? 60,
      sync_local_state_interval: spacing.syncLocalState ?? 180,
    };
    const conf = this.renderConfig(
      apiServiceDefaults({
        DEFAULT: {
          auth_strategy: 'keystone',
          enabled_hardware_types: [...(props.enabledHardwareTypes ?? ['ipmi', 'redfish'])],
          enabled_network_interfaces: props.neutron ? ['flat', 'neutron', 'noop'] : ['flat', 'noop'],
          default_network_interface: props.neutron ? 'neutron' : 'noop',
        },
        conductor: conductorDefaults,
        ...Object.fromEntries(authSections.map((section) => [section, serviceAuth()])),
        ...(props.neutron
          ? {
              neutron: {
                ...serviceAuth(),
                provisioning_network: networks.provisioning.name,
                cleaning_network: cleaning.name,
              },
            }
          : {}),
        ...deps.authtokenConfig,
      }),
    );
    addCheck(this, () => [
      ...conductorProblems(options, spacing, props.config),
      ...(props.networks && !props.neutron
        ? [
            'networks are created in Neutron, but no `neutron` was given; pass the Neutron service or remove `networks`',
          ]
        : []),
      ...[networks.provisioning, ...(networks.cleaning ? [networks.cleaning] : [])].flatMap(networkProblems),
    ]);
    const env = [
      ...deps.env,
      ...authSections.flatMap((section) => serviceUserCredentialsEnv(section, this.registration)),
    ];

    if (props.neutron) {
      const setup = [
        networks.provisioning,
        ...(networks.cleaning && networks.cleaning.name !== networks.provisioning.name
          ? [networks.cleaning]
          : []),
      ];
      this.networkSetup = new JobComponent(this, 'network-setup', {
        operatorKey,
        image: Cloud.of(this).image('openstackclient'),
        command: ['/bin/sh', '-ec', setup.map(networkScript).join('\n')],
        env: keystoneAdminClientEnv(props.keystone),
        secretEnv: { OS_PASSWORD: props.keystone.adminCredentials.ref('password') },
      });
      this.networkSetup
        .dependsOn(props.neutron, 'ready')
        .dependsOn(props.keystone.registrationTarget, 'completed');
    }

    const gate = (c: Component, options?: DependencyGateOptions) => {
      deps.gate(c, options);
      if (props.glance) c.dependsOn(props.glance, 'ready');
      if (this.networkSetup) c.dependsOn(this.networkSetup, 'completed');
      if (props.swift) c.dependsOn(props.swift, 'runtime');
      return c;
    };

    this.api = this.serveApi({
      schedulingKey: SchedulingKey.INFRA_BARE_METAL_API,
      command: uwsgiCommand('ironic-api-wsgi', PORT),
      healthPath: '/',
      replicas: props.apiReplicas,
      env,
      files: { 'ironic.conf': conf },
    });
    gate(this.api);

    const hostEnv: k8s.EnvVar = {
      name: osloEnvName('DEFAULT', 'host'),
      valueFrom: { fieldRef: { fieldPath: 'metadata.name' } },
    };
    this.conductor = new WorkerService(this, 'conductor', {
      placement: placement(
        SchedulingKey.INFRA_BARE_METAL_IRONIC_CONDUCTOR,
        SchedulingKey.INFRA_BARE_METAL_IRONIC_ANY_SERVICE,
      ),
      image,
      command: ['ironic-conductor'],
      workload: 'StatefulSet',
      replicas: options.replicas ?? 2,
      // Talks to BMCs over the network (IPMI, Redfish): no privileges, no host namespaces.
      connectedTo: [props.messaging.port],
      // The pod name is the conductor's name on the hash ring: stable with a StatefulSet.
      env: [...env, hostEnv],
      config: { mountPath: this.configDir, files: { 'ironic.conf': conf } },
      requests: { cpu: '250m', memory: '512Mi' },
    });
    // Validates no tokens: memcached only caches them for the API.
    gate(this.conductor, { cache: false });
  }
}

function conductorProblems(
  options: IronicConductorOptions,
  spacing: IronicPeriodicTaskSpacing,
  config: OsloValues | undefined,
): string[] {
  const problems: string[] = [];
  const poolSize = options.workersPoolSize;
  if (poolSize !== undefined && Number.isInteger(poolSize) && poolSize < MIN_WORKERS_POOL_SIZE) {
    problems.push(
      `conductor.workersPoolSize must be >= ${MIN_WORKERS_POOL_SIZE}, got ${poolSize}: ${WORKERS_POOL_SIZE_WHY}. ` +
        `Set conductor.workersPoolSize to ${MIN_WORKERS_POOL_SIZE} or more (Ironic's default is 100)`,
    );
  } else {
    problems.push(
      ...rangeProblems('conductor.workersPoolSize', poolSize, { min: MIN_WORKERS_POOL_SIZE, max: 10000 }),
    );
  }
  const overridden = config?.conductor?.workers_pool_size;
  if (typeof overridden === 'number' && overridden < MIN_WORKERS_POOL_SIZE) {
    problems.push(
      `ironic.conf: [conductor] workers_pool_size must be >= ${MIN_WORKERS_POOL_SIZE}, got ${overridden}: ${WORKERS_POOL_SIZE_WHY}. ` +
        'Remove the override or raise it (prefer conductor.workersPoolSize)',
    );
  }
  problems.push(
    ...rangeProblems('conductor.replicas', options.replicas, { min: 1, max: 50 }),
    ...rangeProblems('conductor.periodicMaxWorkers', options.periodicMaxWorkers, { min: 1, max: 1000 }),
    ...rangeProblems('conductor.periodicTaskSpacing.syncPowerState', spacing.syncPowerState, {
      min: 0,
      max: 86400,
    }),
    ...rangeProblems('conductor.periodicTaskSpacing.checkProvisionState', spacing.checkProvisionState, {
      min: 0,
      max: 86400,
    }),
    ...rangeProblems('conductor.periodicTaskSpacing.syncLocalState', spacing.syncLocalState, {
      min: 0,
      max: 86400,
    }),
  );
  return problems;
}

/** Names and ranges end up in a shell script: only plain tokens are accepted. */
function networkProblems(network: IronicNetwork): string[] {
  const token = /^[A-Za-z0-9_.-]+$/;
  const problems: string[] = [];
  if (!token.test(network.name))
    problems.push(`network name "${network.name}" must be letters, digits, '_', '.' or '-'`);
  if (network.physicalNetwork !== undefined && !token.test(network.physicalNetwork)) {
    problems.push(
      `network "${network.name}": physicalNetwork "${network.physicalNetwork}" must be letters, digits, '_', '.' or '-'`,
    );
  }
  if (network.cidr !== undefined && !/^[0-9A-Fa-f.:]+\/\d{1,3}$/.test(network.cidr)) {
    problems.push(
      `network "${network.name}": cidr "${network.cidr}" is not an address range like 10.10.0.0/24`,
    );
  }
  return problems;
}

/** Idempotent creation of one network (and its subnet) with the OpenStack client. */
function networkScript(network: IronicNetwork): string {
  const provider = network.physicalNetwork
    ? ` --provider-network-type flat --provider-physical-network ${network.physicalNetwork}`
    : '';
  const lines = [
    `openstack network show ${network.name} >/dev/null 2>&1 || openstack network create${provider} ${network.name}`,
  ];
  if (network.cidr) {
    lines.push(
      `openstack subnet show ${network.name} >/dev/null 2>&1 || openstack subnet create --network ${network.name} --subnet-range ${network.cidr} ${network.name}`,
    );
  }
  return lines.join('\n');
}
