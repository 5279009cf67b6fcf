import { k8s } from 'cdk8s-plus-33';
import { Construct } from 'constructs';
import { Component, IDependable } from '../../lib/model';
import { placement, SchedulingKey } from '../../lib/scheduling';
import { ApiService } from '../kube/api-service';
import { ConfigDirectory } from '../kube/config-files';
import { DatabaseEndpoint, MessagingEndpoint } from '../openstack-kit/endpoints';
import { NodeConfiguredAgent, NodeScope } from '../openstack-kit/node-config-templates';
import { mergeOslo, OsloSchema, OsloValues } from '../openstack-kit/oslo-config';
import { ServiceDatabase } from '../openstack-kit/service-database';
import { ServiceMessaging } from '../openstack-kit/service-messaging';
import { WorkerService } from '../kube/worker-service';
import { novaCompute, NovaComputeOptions } from './nova-compute';

/** Infrastructure of one cell beyond the first. */
export interface NovaCellOptions {
  /** The server holding the cell's database. @default Nova's `database` */
  readonly database?: DatabaseEndpoint;
  /** The cell's message bus (its own vhost either way). @default Nova's `messaging` */
  readonly messaging?: MessagingEndpoint;
  /** @default 2 */
  readonly conductorReplicas?: number;
}

/** The services a cell's components depend on, all given by its Nova. */
export interface NovaCellPeers {
  readonly keystone: IDependable;
  readonly cache: IDependable;
  readonly placement: IDependable;
  readonly glance: IDependable;
  /** Neutron, reached at run time. */
  readonly neutron: IDependable;
  /** Neutron's OVN agent: nova-compute runs on the same node. */
  readonly ovnAgent: IDependable;
  /** Nova's libvirt: nova-compute runs on the same node. */
  readonly libvirt: IDependable;
  /** @default - none */
  readonly cinder?: IDependable;
}

/** What a cell takes from its Nova: where it runs, what it shares with the control plane. */
export interface NovaCellProps {
  /** The cell's position: 0 is cell 1, whose conductor is the super-conductor. */
  readonly index: number;
  /** The name of the Nova service; the cell's vhost is `<name>-cell<N>`. */
  readonly serviceName: string;
  /** The cell's database server (its own database on it either way). */
  readonly database: DatabaseEndpoint;
  /**
   * The cell's database chain on that server, built by Nova before its API database: the API
   * database's sync Job, from which the upgrade's Jobs are made, reads cell 1's connection too.
   */
  readonly cellDatabase: ServiceDatabase;
  /** The cell's message bus (its own vhost on it either way). */
  readonly messaging: MessagingEndpoint;
  /** @default 2 */
  readonly conductorReplicas?: number;
  /** @default 2 */
  readonly vncReplicas?: number;
  /** The cell's hypervisors. */
  readonly nodes: NodeScope;
  readonly image: string;
  readonly operatorKey: SchedulingKey;
  /** The options of nova.conf, for the compute nodes' per-node templates. */
  readonly schema: OsloSchema;
  /** nova.conf of the control plane, which the conductor and the VNC proxy read. */
  readonly controlFiles: ConfigDirectory;
  /** nova.conf of the cell's compute nodes before the cell's console URL and the user's `compute.config`. */
  readonly computeConfig: OsloValues;
  readonly compute: NovaComputeOptions;
  /** The service user's name and password every Nova process reads. */
  readonly serviceCredentials: readonly k8s.EnvVar[];
  /** What the conductor reads besides the cell's database and transport URL. @default - nothing */
  readonly conductorEnv?: readonly k8s.EnvVar[];
  readonly peers: NovaCellPeers;
}

const VNC_PORT = 6080;

/**
 * One Nova cell: its database (with its chain) and vhost, its conductor, its VNC console proxy
 * (console tokens live in the cell's database) and nova-compute on the cell's hypervisors. Built by
 * {@link Nova}, which maps the cell in the API database; {@link NovaCell.mappedBy} adds that edge.
 *
 * Cell 1's components keep Nova's plain names (`nova-conductor`); a further cell's carry its name
 * (`nova-cell2-conductor`).
 */
export class NovaCell extends Construct {
  /** `cell1`, `cell2`, … */
  readonly name: string;
  readonly database: ServiceDatabase;
  readonly messaging: ServiceMessaging;
  readonly conductor: WorkerService;
  readonly vncProxy: ApiService;
  /** nova-compute of the cell's hypervisors, one DaemonSet per class of per-node configuration. */
  readonly compute: NodeConfiguredAgent;
  /** The servers the cell's database and vhost live on. */
  readonly databaseEndpoint: DatabaseEndpoint;
  readonly messagingEndpoint: MessagingEndpoint;

  constructor(scope: Construct, id: string, props: NovaCellProps) {
    super(scope, id);
    const { image, operatorKey, controlFiles, peers } = props;
    this.name = `cell${props.index + 1}`;
    const prefix = props.index === 0 ? '' : `${this.name}-`;
    this.databaseEndpoint = props.database;
    this.messagingEndpoint = props.messaging;

    this.database = props.cellDatabase;
    this.messaging = new ServiceMessaging(this, `${this.name}-mq`, {
      messaging: props.messaging,
      operatorKey,
      vhost: `${props.serviceName}-${this.name}`,
    });

    this.conductor = new WorkerService(this, `${prefix}conductor`, {
      placement: placement(SchedulingKey.COMPUTE_NOVA_CONDUCTOR, SchedulingKey.COMPUTE_NOVA_ANY_SERVICE),
      image,
      command: ['nova-conductor'],
      replicas: props.conductorReplicas ?? 2,
      connectedTo: [props.messaging.port, props.database.port],
      env: [
        ...(props.conductorEnv ?? []),
        ...this.database.connectionEnv('CELL_DB_PASSWORD'),
        ...this.messaging.transportUrlEnv(),
        ...props.serviceCredentials,
      ],
      config: controlFiles,
    });
    this.conductor
      .dependsOn(peers.keystone, 'ready')
      .dependsOn(peers.cache, 'ready')
      .dependsOn(props.database, 'ready')
      .dependsOn(props.messaging, 'ready')
      .dependsOn(this.database.sync, 'completed')
      .dependsOn(this.messaging.init, 'completed')
      // nova-conductor builds its Placement client at start (ComputeTaskManager's report client):
      // with Placement not answering yet it exits ("placement service … does not have any
      // supported versions") and crash-loops; measured on the real node's cold CI run.
      .dependsOn(peers.placement, 'ready');
    const runtimePeers = [peers.glance, peers.neutron, ...(peers.cinder ? [peers.cinder] : [])];
    for (const peer of runtimePeers) this.conductor.dependsOn(peer, 'runtime');

    this.vncProxy = new ApiService(this, `${prefix}vnc`, {
      // Seed 000 lists the VNC proxy among the "Nova supporting services", whose group key is
      // COMPUTE_NOVA_ANY_SERVICE; without it, nodes labelled for Nova's services would not take it.
      placement: placement(SchedulingKey.COMPUTE_VNC, SchedulingKey.COMPUTE_NOVA_ANY_SERVICE),
      image,
      command: ['nova-novncproxy'],
      port: VNC_PORT,
      healthPath: '/vnc_lite.html',
      replicas: props.vncReplicas,
      env: [...this.database.connectionEnv('CELL_DB_PASSWORD'), ...this.messaging.transportUrlEnv()],
      config: controlFiles,
      requests: { cpu: '50m', memory: '128Mi' },
    });
    this.vncProxy.dependsOn(this.database.sync, 'completed').dependsOn(props.database, 'ready');

    const computeConfig = mergeOslo(
      mergeOslo(props.computeConfig, {
        vnc: {
          enabled: true,
          server_listen: '0.0.0.0',
          server_proxyclient_address: '$my_ip',
          novncproxy_base_url: `${this.vncProxy.internalUrl}/vnc_lite.html`,
        },
      }),
      props.compute.config,
    );
    this.compute = novaCompute(this, `${prefix}compute`, {
      options: props.compute,
      image: props.compute.image ?? image,
      nodes: props.nodes,
      schema: props.schema,
      config: computeConfig,
      env: [...this.messaging.transportUrlEnv(), ...props.serviceCredentials],
      messagingPort: props.messaging.port,
    });
    for (const component of this.compute.components) {
      component
        .dependsOn(peers.libvirt, 'same-node')
        .dependsOn(peers.ovnAgent, 'same-node')
        .dependsOn(props.messaging, 'ready')
        .dependsOn(this.messaging.init, 'completed')
        .dependsOn(this.conductor, 'ready')
        .dependsOn(peers.placement, 'ready')
        .dependsOn(peers.keystone, 'ready');
      for (const peer of runtimePeers) component.dependsOn(peer, 'runtime');
    }
  }

  /** The conductor and the console proxy start once the cell is recorded in the API database. */
  mappedBy(cellMapping: Component): void {
    this.conductor.dependsOn(cellMapping, 'completed');
    this.vncProxy.dependsOn(cellMapping, 'completed');
  }
}
