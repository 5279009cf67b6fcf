import { Construct } from 'constructs';
import { commonInputHints, commonInputRules, serviceRule } from '../openstack-kit/input-rules';
import { stringify } from 'yaml';
import { addCheck, Component, IDependable, Rules } from '../../lib/model';
import { placement, requiringNoOvnMaintenance, SchedulingKey } from '../../lib/scheduling';
import { CacheEndpoint, MessagingEndpoint } from '../openstack-kit/endpoints';
import { JobComponent } from '../kube/job-component';
import { KeystoneRegistration } from '../openstack-kit/keystone-registration';
import { serviceUserAuthConfig, serviceUserCredentialsEnv } from '../openstack-kit/keystone-service-user';
import { OsloValues, osloEnvName } from '../openstack-kit/oslo-config';
import { ServiceMessaging } from '../openstack-kit/service-messaging';
import { WorkerService } from '../kube/worker-service';
import { Keystone } from './keystone';
import {
  OpenStackService,
  OpenStackServiceDescriptor,
  OpenStackServiceOptions,
} from '../openstack-kit/openstack-service';

/**
 * What the compute agent needs from Nova: the nova-compute component(s) it must share a node with.
 * `Nova` satisfies it; so does any object with the same shape, e.g. `{ compute: [novaCompute] }`.
 */
export interface HypervisorSource {
  /** nova-compute: one dependable, or one per per-node configuration (each its own DaemonSet). */
  readonly compute: IDependable | readonly IDependable[];
}

/** What Ceilometer publishes to: Gnocchi's API. `Gnocchi` satisfies it. */
export interface MetricStore extends IDependable {
  /** In-cluster URL of the metric API, for the record; the publisher finds it in the catalogue. */
  readonly internalUrl: string;
}

/** Ceilometer has no API: it takes no database, and memcached only to coordinate its central agents. */
export interface CeilometerProps extends OpenStackServiceOptions {
  readonly keystone: Keystone;
  /** Notifications and polled samples travel through it. */
  readonly messaging: MessagingEndpoint;
  /** Samples are published to Gnocchi. */
  readonly gnocchi: MetricStore;
  /**
   * Nova, when the compute agent should poll instances on every hypervisor (a same-node edge to
   * nova-compute). @default - no compute agent
   */
  readonly nova?: HypervisorSource;
  /**
   * Coordination backend (tooz over memcached), needed when several central agents share the
   * polling work. @default - none, which allows a single central agent only
   */
  readonly cache?: CacheEndpoint;
  /** @default 1 */
  readonly centralReplicas?: number;
  /** @default 1 */
  readonly notificationReplicas?: number;
  /** Seconds between two polls of every pollster. @default 300 */
  readonly pollingInterval?: number;
  /** Gnocchi archive policy of the published metrics. @default 'low' */
  readonly archivePolicy?: string;
}

const CEILOMETER: OpenStackServiceDescriptor<CeilometerProps> = {
  image: 'ceilometer',
  operatorKey: SchedulingKey.OPERATOR_CEILOMETER,
  inputs: {
    ...commonInputHints('keystone', 'messaging'),
    gnocchi: 'the Gnocchi service (where samples are published)',
  },
  props: {
    ...commonInputRules('keystone', 'messaging', 'cache'),
    gnocchi: serviceRule('the Gnocchi service'),
    // The Nova service: only its `compute` is read.
    nova: Rules.given((value, name) =>
      typeof value === 'object' && value !== null && 'compute' in value
        ? []
        : [`${name} is not the Nova service; pass the Nova service (its compute agents are polled)`],
    ),
    centralReplicas: Rules.count({ min: 1, max: 10 }),
    notificationReplicas: Rules.count({ min: 1, max: 10 }),
    pollingInterval: Rules.count({ min: 10, max: 86400 }),
    archivePolicy: Rules.nonEmptyText(),
  },
};

/**
 * Ceilometer, the telemetry collector: the central agent (polls the APIs), the notification agent
 * (turns notifications and samples into metrics for Gnocchi), an optional compute agent on every
 * hypervisor, the Job that creates Gnocchi's resource types (`ceilometer-upgrade`), its own service
 * user and RabbitMQ vhost.
 *
 * @example
 * new Ceilometer(cloud, 'ceilometer', { keystone, messaging, gnocchi, nova });
 */
export class Ceilometer extends OpenStackService {
  readonly central: WorkerService;
  readonly notification: WorkerService;
  /** The compute agent DaemonSet, present when `nova` is given. */
  readonly compute?: WorkerService;
  /** `ceilometer-upgrade`: creates the resource types in Gnocchi. */
  readonly upgrade: JobComponent;
  readonly registration: KeystoneRegistration;

  constructor(scope: Construct, id: string, props: CeilometerProps) {
    super(scope, id, props, CEILOMETER);
    const { image, operatorKey } = this;
    const centralReplicas = props.centralReplicas ?? 1;
    const pollingInterval = props.pollingInterval ?? 300;
    addCheck(this, () => [
      ...(centralReplicas > 1 && !props.cache
        ? [
            `centralReplicas is ${centralReplicas} but there is no coordination backend; pass \`cache\` (a Memcached) or use one central agent`,
          ]
        : []),
    ]);

    const messaging = new ServiceMessaging(this, 'mq', { messaging: props.messaging, operatorKey });
    // Ceilometer has no API: only its service user, which polls the other APIs and writes to Gnocchi.
    this.registration = new KeystoneRegistration(this, 'ks-register', {
      keystone: props.keystone,
      operatorKey,
      catalogName: 'ceilometer',
      rotation: this.serviceUserRotation,
    });

    const serviceCredentials: OsloValues[string] = {
      ...serviceUserAuthConfig(props.keystone),
      interface: 'internalURL',
    };
    const conf = this.renderConfig({
      DEFAULT: { debug: false, use_stderr: true },
      service_credentials: serviceCredentials,
      polling: { cfg_file: `${this.configDir}/polling.yaml` },
      ...(props.cache && props.cache.servers.length > 0
        ? { coordination: { backend_url: `memcached://${props.cache.servers[0]}` } }
        : {}),
      // Read instances from libvirt's domain metadata: no Nova API call per poll.
      compute: { instance_discovery_method: 'libvirt_metadata' },
      // The polling agents publish samples as notifications on Ceilometer's own vhost, where
      // its notification agent consumes them.
      oslo_messaging_notifications: { driver: ['messagingv2'] },
    });
    const files = {
      'ceilometer.conf': conf,
      'polling.yaml': stringify({
        sources: [{ name: 'all_pollsters', interval: pollingInterval, meters: ['*'] }],
      }),
      'pipeline.yaml': stringify({
        sources: [{ name: 'meter_source', meters: ['*'], sinks: ['meter_sink'] }],
        sinks: [
          { name: 'meter_sink', publishers: [`gnocchi://?archive_policy=${props.archivePolicy ?? 'low'}`] },
        ],
      }),
    };
    const credentialsEnv = serviceUserCredentialsEnv('service_credentials', this.registration);
    const env = [...messaging.transportUrlEnv(), ...credentialsEnv];

    this.upgrade = new JobComponent(this, 'upgrade', {
      operatorKey,
      image,
      command: ['ceilometer-upgrade'],
      // Options through oslo.config's environment source: this Job has no config file of its own.
      env: Object.fromEntries(
        Object.entries(serviceCredentials).map(([option, value]) => [
          osloEnvName('service_credentials', option),
          String(value),
        ]),
      ),
      extraEnv: credentialsEnv,
    });
    this.upgrade.dependsOn(props.gnocchi, 'ready').dependsOn(this.registration.job, 'completed');

    const agent = (c: Component) =>
      c
        .dependsOn(messaging.init, 'completed')
        .dependsOn(this.registration.job, 'completed')
        .dependsOn(props.messaging, 'ready');
    const collector = (c: Component) =>
      agent(c)
        .dependsOn(this.upgrade, 'completed')
        .dependsOn(props.keystone, 'ready')
        .dependsOn(props.gnocchi, 'ready');

    this.central = new WorkerService(this, 'central', {
      placement: placement(SchedulingKey.CEILOMETER_CENTRAL, SchedulingKey.CEILOMETER_ANY_SERVICE),
      image,
      command: ['ceilometer-polling', '--polling-namespaces', 'central'],
      replicas: centralReplicas,
      connectedTo: [props.messaging.port],
      env,
      config: { mountPath: this.configDir, files },
    });
    collector(this.central);
    if (props.cache) this.central.dependsOn(props.cache, 'ready');

    this.notification = new WorkerService(this, 'notification', {
      placement: placement(SchedulingKey.CEILOMETER_NOTIFICATION, SchedulingKey.CEILOMETER_ANY_SERVICE),
      image,
      command: ['ceilometer-agent-notification'],
      replicas: props.notificationReplicas ?? 1,
      connectedTo: [props.messaging.port],
      env,
      config: { mountPath: this.configDir, files },
      requests: { cpu: '200m', memory: '512Mi' },
    });
    collector(this.notification);

    if (props.nova) {
      this.compute = new WorkerService(this, 'compute', {
        // It belongs next to nova-compute, so it follows nova-compute's placement: the hypervisor
        // key and the no-OVN-maintenance label (nova-compute never runs where the label is missing).
        placement: requiringNoOvnMaintenance(placement(SchedulingKey.COMPUTE_HYPERVISOR)),
        image,
        command: ['ceilometer-polling', '--polling-namespaces', 'compute'],
        workload: 'DaemonSet',
        connectedTo: [props.messaging.port],
        env,
        config: { mountPath: this.configDir, files },
        // Not privileged and not in the host's namespaces: it reads instance statistics through
        // libvirt's socket, which is all it mounts from the host.
        volumes: [{ name: 'libvirt-run', hostPath: { path: '/run/libvirt', type: 'Directory' } }],
        volumeMounts: [{ name: 'libvirt-run', mountPath: '/run/libvirt' }],
        requests: { cpu: '50m', memory: '128Mi' },
      });
      agent(this.compute);
      for (const target of asList(props.nova.compute)) this.compute.dependsOn(target, 'same-node');
    }
  }

  protected get entryPoints(): readonly Component[] {
    return [this.central, this.notification];
  }
}

function asList(targets: IDependable | readonly IDependable[]): readonly IDependable[] {
  return Array.isArray(targets) ? (targets as readonly IDependable[]) : [targets as IDependable];
}
