import { k8s } from 'cdk8s-plus-33';
import { Construct } from 'constructs';
import { Cloud, PropsSpec, Rules } from '../../lib/model';
import { placement, SchedulingKey } from '../../lib/scheduling';
import { ClusteredServer } from './infra-service';
import {
  ClusterServices,
  clusteredStatefulSet,
  clusterMemberHosts,
  memberProbes,
  quorumReplicas,
} from '../kube/clustered-stateful-set';
import { CONFIG_CHECKSUM_ANNOTATION, configFiles } from '../kube/config-files';
import {
  GaleraMember,
  MARIADB_ALIVE_COMMAND,
  MARIADB_CONFIG_DIR,
  MARIADB_RUN_DIR,
  MARIADB_VOLUME_DIR,
  mariadbConfig,
  mariadbReadyCommand,
  mariadbStartScript,
} from './galera-scripts';
import { DatabaseEndpoint } from '../openstack-kit/endpoints';
import { containerResources } from '../kube/pod-template';
import { GeneratedSecret } from '../kube/generated-secret';
import { GaleraBackupCronJob } from './galera-backup-cron-job';
import { envFromSecret, SecretRef } from '../kube/secret-ref';

export interface MariaDBProps {
  /**
   * Galera nodes. Must be odd so a partition always leaves a quorum on one side.
   * @default 3
   */
  readonly replicas?: number;
  /** Volume size per node. @default '10Gi' */
  readonly storageSize?: string;
  /** @default - the cluster's default StorageClass */
  readonly storageClassName?: string;
  /** @default the cloud's registry `mariadb:11.4` */
  readonly image?: string;
  /**
   * Size of the volume the verified backups go to (`<name>-backups`; docs/upgrades.md).
   * @default '10Gi'
   */
  readonly backupStorageSize?: string;
  /**
   * How many verified backups stay on the backup volume: after each verified run, the runs older
   * than the `backupsKept`-th newest verified one are removed (a failed run newer than that stays,
   * for its log's sake). Size `backupStorageSize` for this many dumps of every database.
   * @default 7
   */
  readonly backupsKept?: number;
}

const PORT = 3306;

const MARIADB_PROPS: PropsSpec<MariaDBProps> = {
  replicas: quorumReplicas(9, 'so Galera keeps a quorum'),
  storageSize: Rules.quantity(),
  storageClassName: Rules.dnsSubdomain(),
  image: Rules.image(),
  backupStorageSize: Rules.quantity(),
  backupsKept: Rules.count({ min: 1, max: 366 }),
};

/**
 * MariaDB with Galera replication: a StatefulSet of `replicas` members with a headless Service for
 * peer discovery, a client Service that sends every client to member 0 (one writer, so no
 * certification conflicts), and a PodDisruptionBudget that keeps a quorum during drains. Members
 * run `start.sh` from their ConfigMap, which initialises an empty datadir, bootstraps a new cluster
 * only when no other member runs, and otherwise joins (see `galera-scripts.ts` and
 * docs/infrastructure.md for the full-restart story). The root and SST passwords are generated in
 * the cluster. Per-service databases and users are created by each consuming service's `db-init`
 * Job (see `ServiceDatabase`), as `root@'%'`.
 */
export class MariaDB extends ClusteredServer implements DatabaseEndpoint {
  readonly credentials: GeneratedSecret;
  /** The password of the account mariadb-backup uses on a donor during a state transfer. */
  readonly sstCredentials: GeneratedSecret;
  /** The verified backup: a suspended CronJob a release upgrade runs before its first schema step. */
  readonly backup: GaleraBackupCronJob;
  readonly host: string;
  readonly clientImage: string;
  readonly port = PORT;

  constructor(scope: Construct, id: string, props: MariaDBProps = {}) {
    super(scope, id, {
      appName: 'mariadb',
      props,
      propsSpec: MARIADB_PROPS,
      placement: placement(SchedulingKey.INFRA_DATABASE, SchedulingKey.ANY_INFRA),
    });
    const cloud = Cloud.of(this);
    const replicas = props.replicas ?? 3;
    this.credentials = this.generatedSecret('credentials', ['password']);
    // A separate Secret, so clouds deployed before it existed get it without touching the root password.
    this.sstCredentials = this.generatedSecret('sst-credentials', ['password']);
    const name = this.server.componentName;
    this.host = cloud.serviceHost(name);
    this.clientImage = props.image ?? cloud.image('mariadb', '11.4');
    const services: ClusterServices = {
      replicas,
      peerPorts: [
        { name: 'mysql', port: PORT },
        { name: 'galera', port: 4567 },
        { name: 'ist', port: 4568 },
        { name: 'sst', port: 4444 },
      ],
      clientPorts: [{ name: 'mysql', port: PORT }],
    };
    const member: GaleraMember = {
      replicas,
      hosts: clusterMemberHosts(this.server, services),
      clusterName: `${cloud.cloudName}-${name}`,
      port: PORT,
    };
    const config = configFiles(this.server, MARIADB_CONFIG_DIR, {
      'my.cnf': mariadbConfig(member),
      'start.sh': mariadbStartScript(member),
    });
    const alive: k8s.Probe = { exec: { command: [...MARIADB_ALIVE_COMMAND] }, timeoutSeconds: 10 };
    clusteredStatefulSet(this.server, {
      ...services,
      // A majority must survive the loss of a node: one member per node.
      spread: 'even',
      // Members decide for themselves whether to bootstrap or join (see start.sh), and after a crash
      // of every member Galera re-forms the cluster only once all of them run: OrderedReady would
      // wait for member 0 to be Synced before starting the member it needs.
      podManagementPolicy: 'Parallel',
      // Galera certifies concurrent writes to the same rows on different members by aborting one of
      // them at commit, which OpenStack services do not retry: every client writes through member 0.
      clientMember: 0,
      storage: { size: props.storageSize ?? '10Gi', storageClassName: props.storageClassName },
      pod: {
        annotations: { [CONFIG_CHECKSUM_ANNOTATION]: config.checksum },
        volumes: [config.volume, { name: 'run', emptyDir: {} }, { name: 'tmp', emptyDir: {} }],
        containers: [
          {
            name: 'mariadb',
            image: this.clientImage,
            command: ['/bin/sh', `${MARIADB_CONFIG_DIR}/start.sh`],
            ports: [{ name: 'mysql', containerPort: PORT }],
            env: [
              envFromSecret('MARIADB_ROOT_PASSWORD', this.adminPassword),
              envFromSecret('MARIADB_SST_PASSWORD', this.sstCredentials.ref('password')),
            ],
            volumeMounts: [
              config.mount,
              { name: 'data', mountPath: MARIADB_VOLUME_DIR },
              { name: 'run', mountPath: MARIADB_RUN_DIR },
              { name: 'tmp', mountPath: '/tmp' },
            ],
            // Initialising, waiting for a primary component and a state transfer from a donor can
            // take long on a big database; a donor or desynced member is busy, not dead.
            ...memberProbes({
              alive,
              ready: {
                exec: { command: mariadbReadyCommand(replicas) },
                periodSeconds: 10,
                timeoutSeconds: 5,
              },
              startupAttempts: 180,
            }),
            resources: containerResources({ cpu: '250m', memory: '1Gi' }),
          },
        ],
      },
    });
    this.backup = new GaleraBackupCronJob(this, 'backup', {
      image: this.clientImage,
      host: this.host,
      port: PORT,
      adminPassword: this.adminPassword,
      storageSize: props.backupStorageSize ?? '10Gi',
      storageClassName: props.storageClassName,
      backupsKept: props.backupsKept,
    });
    this.backup.dependsOn(this.server, 'ready').dependsOn(this.credentials, 'completed');
  }

  get adminPassword(): SecretRef {
    return this.credentials.ref('password');
  }
}
