import { k8s } from 'cdk8s-plus-33';
import { Construct } from 'constructs';
import { addCheck, Cloud, Component, rangeProblems, Service } from '../../lib/model';
import { placement, SchedulingKey } from '../../lib/scheduling';
import { configFiles } from '../common/config-files';
import { DatabaseEndpoint } from '../common/endpoints';
import { GeneratedSecret } from '../common/generated-secret';
import { podTemplate } from '../common/pod-template';
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
    addCheck(this, () => [
      ...rangeProblems('replicas', replicas, { min: 1, max: 9 }),
      ...(replicas % 2 === 0
        ? [`replicas must be odd so Galera keeps a quorum, got ${replicas}; use ${replicas + 1}`]
        : []),
    ]);
    this.credentials = new GeneratedSecret(this, 'credentials', {
      operatorKey: SchedulingKey.OPERATOR_ANY,
      keys: ['password'],
    });
    this.server = new Component(this, 'default', {
      placement: placement(SchedulingKey.INFRA_DATABASE, SchedulingKey.ANY_INFRA),
    });
    this.server.dependsOn(this.credentials, 'completed');
    const name = this.server.componentName;
    const peers = `${name}-peers`;
    this.host = name;
    const addresses = Array.from({ length: replicas }, (_, i) => `${name}-${i}.${peers}`).join(',');
    const config = configFiles(this.server, '/etc/mysql/conf.d', {
      'galera.cnf': [
        '[mysqld]',
        'binlog_format = ROW',
        'default_storage_engine = InnoDB',
        'innodb_autoinc_lock_mode = 2',
        `wsrep_on = ${replicas > 1 ? 'ON' : 'OFF'}`,
        'wsrep_provider = /usr/lib/galera/libgalera_smm.so',
        `wsrep_cluster_address = gcomm://${addresses}`,
        `wsrep_cluster_name = ${cloud.cloudName}-${name}`,
        'wsrep_sst_method = mariabackup',
        '',
      ].join('\n'),
    });
    new k8s.KubeService(this.server, 'peers', {
      metadata: { name: peers },
      spec: {
        clusterIp: 'None',
        publishNotReadyAddresses: true,
        selector: this.server.selectorLabels,
        ports: [
          { name: 'mysql', port: PORT },
          { name: 'galera', port: 4567 },
          { name: 'ist', port: 4568 },
          { name: 'sst', port: 4444 },
        ],
      },
    });
    new k8s.KubeService(this.server, 'client', {
      metadata: { name },
      spec: { selector: this.server.selectorLabels, ports: [{ name: 'mysql', port: PORT }] },
    });
    const probe: k8s.Probe = {
      exec: { command: ['/bin/sh', '-ec', 'mariadb-admin -uroot -p"$MARIADB_ROOT_PASSWORD" ping'] },
      periodSeconds: 10,
      timeoutSeconds: 5,
    };
    new k8s.KubeStatefulSet(this.server, 'statefulset', {
      metadata: { name },
      spec: {
        serviceName: peers,
        replicas,
        podManagementPolicy: 'OrderedReady',
        selector: { matchLabels: this.server.selectorLabels },
        template: podTemplate(this.server, {
          spreadReplicas: true,
          annotations: { 'stackwright.io/config-checksum': config.checksum },
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
              resources: {
                requests: { cpu: k8s.Quantity.fromString('250m'), memory: k8s.Quantity.fromString('1Gi') },
                limits: { memory: k8s.Quantity.fromString('4Gi') },
              },
            },
          ],
        }),
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: {
              accessModes: ['ReadWriteOnce'],
              storageClassName: props.storageClassName,
              resources: { requests: { storage: k8s.Quantity.fromString(props.storageSize ?? '10Gi') } },
            },
          },
        ],
      },
    });
    new k8s.KubePodDisruptionBudget(this.server, 'pdb', {
      metadata: { name },
      spec: {
        maxUnavailable: k8s.IntOrString.fromNumber(1),
        selector: { matchLabels: this.server.selectorLabels },
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
