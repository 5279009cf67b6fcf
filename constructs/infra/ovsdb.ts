import { k8s } from 'cdk8s-plus-33';
import { Construct } from 'constructs';
import { Cloud, Component, PropsSpec, Rules } from '../../lib/model';
import { placement, SchedulingKey } from '../../lib/scheduling';
import { InfraService } from './infra-service';
import { resourcesWithMemoryLimit } from '../kube/memory-limit';
import {
  ClusterServices,
  clusteredStatefulSet,
  clusterMemberHosts,
  clusterServiceName,
  quorumReplicas,
} from '../kube/clustered-stateful-set';

/** The OVN release whose images the OVSDB clusters, northd and the OVN agent use by default. */
export const OVN_IMAGE_TAG = '24.03';

export interface OvsdbClusterProps {
  /**
   * Raft members of each database. Odd, so a partition leaves a majority on one side; one member
   * is a cluster without redundancy (labs only).
   * @default 3
   */
  readonly replicas?: number;
  /** Volume size per member. @default '1Gi' */
  readonly storageSize?: string;
  /** @default - the cluster's default StorageClass */
  readonly storageClassName?: string;
  /** @default the cloud's registry `ovn:24.03` */
  readonly image?: string;
}

const OVSDB_PROPS: PropsSpec<OvsdbClusterProps> = {
  replicas: quorumReplicas(7, 'so a raft majority survives a partition'),
  storageSize: Rules.quantity(),
  storageClassName: Rules.dnsSubdomain(),
  image: Rules.image(),
};

/** What distinguishes the northbound from the southbound database. */
interface OvsdbSchema {
  /** Component id and name suffix. */
  readonly id: 'nb' | 'sb';
  /** The database name inside the file, as `ovsdb-tool` and `cluster/status` call it. */
  readonly dbName: string;
  readonly schemaFile: string;
  /** Base name of the database file, control socket and pid file. */
  readonly fileStem: string;
  /** Where clients (northd, neutron-server, ovn-controller) connect. */
  readonly clientPort: number;
  /** Where raft members talk to each other. */
  readonly raftPort: number;
}

const NORTHBOUND: OvsdbSchema = {
  id: 'nb',
  dbName: 'OVN_Northbound',
  schemaFile: '/usr/share/ovn/ovn-nb.ovsschema',
  fileStem: 'ovnnb_db',
  clientPort: 6641,
  raftPort: 6643,
};

const SOUTHBOUND: OvsdbSchema = {
  id: 'sb',
  dbName: 'OVN_Southbound',
  schemaFile: '/usr/share/ovn/ovn-sb.ovsschema',
  fileStem: 'ovnsb_db',
  clientPort: 6642,
  raftPort: 6644,
};

/**
 * One OVN database as a raft cluster: a StatefulSet of `replicas` ovsdb-server members, a headless
 * Service through which members find each other (and clients list every member), a client Service,
 * and a PodDisruptionBudget that keeps a majority during drains.
 */
export class OvsdbDatabase extends Component {
  /** The database name, `OVN_Northbound` or `OVN_Southbound`. */
  readonly dbName: string;
  readonly port: number;
  /**
   * The OVSDB remote clients use: every member (`tcp:<member>:<port>,…`), since raft clients pick a
   * member themselves and move on when it fails.
   */
  readonly connection: string;

  constructor(
    scope: Construct,
    schema: OvsdbSchema,
    props: { replicas: number; image: string; storageSize: string; storageClassName?: string },
  ) {
    super(scope, schema.id, {
      placement: placement(SchedulingKey.INFRA_OVSDB_CLUSTER, SchedulingKey.ANY_INFRA),
    });
    const name = this.componentName;
    const services: ClusterServices = {
      replicas: props.replicas,
      peerPorts: [
        { name: 'ovsdb', port: schema.clientPort },
        { name: 'raft', port: schema.raftPort },
      ],
      clientPorts: [{ name: 'ovsdb', port: schema.clientPort }],
    };
    const peers = clusterServiceName(this, services);
    this.dbName = schema.dbName;
    this.port = schema.clientPort;
    // Fully qualified: the OVN agent reaches the southbound from the agents' namespace, and OVS and
    // OVN resolve names with libunbound (the Python `ovs` library with its binding), which ignores
    // the pod's search list: `ovsdb-nb-0.ovsdb-nb-peers.<ns>.svc` alone does not resolve.
    const cloud = Cloud.of(this);
    this.connection = clusterMemberHosts(this, services)
      .map((m) => `tcp:${cloud.serviceFqdn(m)}:${schema.clientPort}`)
      .join(',');
    // The namespace and the cluster domain are DNS names (checked by the Cloud): safe in the script.
    const member = (host: string) => cloud.serviceFqdn(`${host}.${peers}`);

    const control = `/var/run/ovn/${schema.fileStem}.ctl`;
    const database = `/var/lib/ovn/${schema.fileStem}.db`;
    // Member 0 creates the cluster on first start, the others join through it; after that every
    // member starts from its own file, so a restart of the whole cluster needs no ordering (the
    // StatefulSet starts members in parallel, since none is ready without a majority).
    const start = [
      `self="tcp:${member('${HOSTNAME}')}:${schema.raftPort}"`,
      `if [ ! -e ${database} ]; then`,
      '  if [ "${HOSTNAME##*-}" = 0 ]; then',
      `    ovsdb-tool create-cluster ${database} ${schema.schemaFile} "$self"`,
      '  else',
      `    ovsdb-tool join-cluster ${database} ${schema.dbName} "$self" tcp:${member(`${name}-0`)}:${schema.raftPort}`,
      '  fi',
      'fi',
      `exec ovsdb-server ${database} --remote=ptcp:${schema.clientPort} --unixctl=${control} ` +
        `--pidfile=/var/run/ovn/${schema.fileStem}.pid -vconsole:info -vfile:off`,
    ].join('\n');
    const readiness: k8s.Probe = {
      exec: {
        command: [
          '/bin/sh',
          '-c',
          `ovs-appctl -t ${control} cluster/status ${schema.dbName} | grep -q 'Status: cluster member'`,
        ],
      },
      initialDelaySeconds: 5,
      periodSeconds: 10,
      timeoutSeconds: 5,
    };
    const liveness: k8s.Probe = {
      exec: { command: ['ovs-appctl', '-t', control, 'version'] },
      initialDelaySeconds: 30,
      periodSeconds: 10,
      timeoutSeconds: 5,
      failureThreshold: 6,
    };
    clusteredStatefulSet(this, {
      ...services,
      // A majority must survive the loss of a node: one member per node.
      spread: 'even',
      podManagementPolicy: 'Parallel',
      storage: { size: props.storageSize, storageClassName: props.storageClassName },
      pod: {
        volumes: [
          { name: 'run', emptyDir: {} },
          { name: 'tmp', emptyDir: {} },
        ],
        containers: [
          {
            name: 'ovsdb-server',
            image: props.image,
            command: ['/bin/sh', '-ec', start],
            ports: [
              { name: 'ovsdb', containerPort: schema.clientPort },
              { name: 'raft', containerPort: schema.raftPort },
            ],
            volumeMounts: [
              { name: 'data', mountPath: '/var/lib/ovn' },
              { name: 'run', mountPath: '/var/run/ovn' },
              { name: 'tmp', mountPath: '/tmp' },
            ],
            readinessProbe: readiness,
            livenessProbe: liveness,
            resources: resourcesWithMemoryLimit({ cpu: '100m', memory: '256Mi' }, '2Gi'),
          },
        ],
      },
    });
  }
}

/**
 * The OVN databases as raft clusters: northbound (`<id>-nb`, written by neutron-server, read by
 * northd) and southbound (`<id>-sb`, written by northd, read by every ovn-controller). One
 * construct with two components rather than one construct per database, because OVN always needs
 * both, with the same size, storage and image; each is still its own component, so a dependant
 * waits for exactly the database it talks to (`ovsdb.nb`, `ovsdb.sb`). Depending on the whole
 * construct waits for both.
 *
 * Scheduled with `INFRA_OVSDB_CLUSTER` and the `ANY_INFRA` group.
 *
 * @example
 * const ovsdb = new OvsdbCluster(cloud, 'ovsdb', { replicas: 3 });
 * new Neutron(cloud, 'neutron', { keystone, database, messaging, cache, ovsdb });
 */
export class OvsdbCluster extends InfraService {
  readonly nb: OvsdbDatabase;
  readonly sb: OvsdbDatabase;

  constructor(scope: Construct, id: string, props: OvsdbClusterProps = {}) {
    super(scope, id, { appName: 'ovsdbcluster', props, propsSpec: OVSDB_PROPS });
    const cloud = Cloud.of(this);
    const replicas = props.replicas ?? 3;
    const options = {
      replicas,
      image: props.image ?? cloud.image('ovn', OVN_IMAGE_TAG),
      storageSize: props.storageSize ?? '1Gi',
      storageClassName: props.storageClassName,
    };
    this.nb = new OvsdbDatabase(this, NORTHBOUND, options);
    this.sb = new OvsdbDatabase(this, SOUTHBOUND, options);
  }

  protected get entryPoints(): readonly Component[] {
    return [this.nb, this.sb];
  }
}
