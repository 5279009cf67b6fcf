import { k8s } from 'cdk8s-plus-33';
import { Construct } from 'constructs';
import { addCheck, Cloud, Component, Service } from '../../lib/model';
import { placement, SchedulingKey } from '../../lib/scheduling';
import {
  ClusterServices,
  clusteredStatefulSet,
  clusterMemberHosts,
  quorumReplicasProblems,
} from '../common/clustered-stateful-set';
import { CONFIG_CHECKSUM_ANNOTATION, configFiles } from '../common/config-files';
import { DatabaseEndpoint } from '../common/endpoints';
import { containerResources } from '../common/pod-template';
import { GeneratedSecret } from '../common/generated-secret';
import { envFromSecret, SecretRef } from '../common/secret-ref';

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
}

const PORT = 3306;

/**
 * MariaDB with Galera replication: a StatefulSet of `replicas` nodes with a headless Service for
 * peer discovery, a client Service, and a PodDisruptionBudget that keeps a quorum during drains.
 * The root password is generated in the cluster. Per-service databases and users are created by
 * each consuming service's `db-init` Job (see `ServiceDatabase`).
 */
export class MariaDB extends Service implements DatabaseEndpoint {
  readonly server: Component;
  readonly credentials: GeneratedSecret;
  readonly host: string;
  readonly port = PORT;

  constructor(scope: Construct, id: string, props: MariaDBProps = {}) {
    super(scope, id);
    const cloud = Cloud.of(this);
    const replicas = props.replicas ?? 3;
    addCheck(this, () => quorumReplicasProblems(replicas, 9, 'so Galera keeps a quorum'));
    this.credentials = new GeneratedSecret(this, 'credentials', {
      operatorKey: SchedulingKey.OPERATOR_ANY,
      keys: ['password'],
    });
    this.server = new Component(this, 'default', {
      placement: placement(SchedulingKey.INFRA_DATABASE, SchedulingKey.ANY_INFRA),
    });
    this.server.dependsOn(this.credentials, 'completed');
    const name = this.server.componentName;
    this.host = name;
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
    const config = configFiles(this.server, '/etc/mysql/conf.d', {
      'galera.cnf': [
        '[mysqld]',
        'binlog_format = ROW',
        'default_storage_engine = InnoDB',
        'innodb_autoinc_lock_mode = 2',
        `wsrep_on = ${replicas > 1 ? 'ON' : 'OFF'}`,
        'wsrep_provider = /usr/lib/galera/libgalera_smm.so',
        `wsrep_cluster_address = gcomm://${clusterMemberHosts(this.server, services).join(',')}`,
        `wsrep_cluster_name = ${cloud.cloudName}-${name}`,
        'wsrep_sst_method = mariabackup',
        '',
      ].join('\n'),
    });
    const probe: k8s.Probe = {
      exec: { command: ['/bin/sh', '-ec', 'mariadb-admin -uroot -p"$MARIADB_ROOT_PASSWORD" ping'] },
      periodSeconds: 10,
      timeoutSeconds: 5,
    };
    clusteredStatefulSet(this.server, {
      ...services,
      // The first node bootstraps the Galera cluster; the others join it one at a time.
      podManagementPolicy: 'OrderedReady',
      storage: { size: props.storageSize ?? '10Gi', storageClassName: props.storageClassName },
      pod: {
        annotations: { [CONFIG_CHECKSUM_ANNOTATION]: config.checksum },
        volumes: [config.volume, { name: 'run', emptyDir: {} }, { name: 'tmp', emptyDir: {} }],
        containers: [
          {
            name: 'mariadb',
            image: props.image ?? cloud.image('mariadb', '11.4'),
            ports: [{ name: 'mysql', containerPort: PORT }],
            env: [envFromSecret('MARIADB_ROOT_PASSWORD', this.adminPassword)],
            volumeMounts: [
              config.mount,
              { name: 'data', mountPath: '/var/lib/mysql' },
              { name: 'run', mountPath: '/run/mysqld' },
              { name: 'tmp', mountPath: '/tmp' },
            ],
            readinessProbe: probe,
            livenessProbe: { ...probe, initialDelaySeconds: 60 },
            resources: containerResources({ cpu: '250m', memory: '1Gi' }),
          },
        ],
      },
    });
  }

  get adminPassword(): SecretRef {
    return this.credentials.ref('password');
  }

  protected get entryPoints(): readonly Component[] {
    return [this.server];
  }
}
