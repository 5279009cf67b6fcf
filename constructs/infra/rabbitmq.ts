import { k8s } from 'cdk8s-plus-33';
import { Construct } from 'constructs';
import { addCheck, Cloud, Component, rangeProblems, Service } from '../../lib/model';
import { placement, SchedulingKey } from '../../lib/scheduling';
import { configFiles } from '../common/config-files';
import { MessagingEndpoint } from '../common/endpoints';
import { GeneratedSecret } from '../common/generated-secret';
import { podTemplate } from '../common/pod-template';
import { envFromSecret, SecretRef } from '../common/secret-ref';

export interface RabbitMQProps {
  /** Cluster members; odd, for quorum queues. @default 3 */
  readonly replicas?: number;
  /** @default '5Gi' */
  readonly storageSize?: string;
  /** @default the cloud's registry `rabbitmq:3.13` */
  readonly image?: string;
}

const AMQP_PORT = 5672;
const MANAGEMENT_PORT = 15672;

/**
 * RabbitMQ for oslo.messaging: a clustered StatefulSet (peer discovery through the headless
 * Service), a client Service with AMQP and the management API (used by the per-service vhost/user
 * Jobs, see `ServiceMessaging`), and a PodDisruptionBudget. Admin password and Erlang cookie are
 * generated in the cluster.
 */
export class RabbitMQ extends Service implements MessagingEndpoint {
  readonly server: Component;
  readonly credentials: GeneratedSecret;
  readonly host: string;
  readonly port = AMQP_PORT;
  readonly managementPort = MANAGEMENT_PORT;
  readonly adminUser = 'admin';

  constructor(scope: Construct, id: string, props: RabbitMQProps = {}) {
    super(scope, id);
    const cloud = Cloud.of(this);
    const replicas = props.replicas ?? 3;
    addCheck(this, () => [
      ...rangeProblems('replicas', replicas, { min: 1, max: 9 }),
      ...(replicas % 2 === 0
        ? [`replicas must be odd for quorum queues, got ${replicas}; use ${replicas + 1}`]
        : []),
    ]);
    this.credentials = new GeneratedSecret(this, 'credentials', {
      operatorKey: SchedulingKey.OPERATOR_ANY,
      keys: ['password', 'erlang-cookie'],
    });
    this.server = new Component(this, 'default', {
      placement: placement(SchedulingKey.INFRA_MESSAGE_QUEUE, SchedulingKey.ANY_INFRA),
    });
    this.server.dependsOn(this.credentials, 'completed');
    const name = this.server.componentName;
    const peers = `${name}-peers`;
    this.host = name;
    const config = configFiles(this.server, '/etc/rabbitmq', {
      'rabbitmq.conf': [
        'cluster_formation.peer_discovery_backend = classic_config',
        ...Array.from(
          { length: replicas },
          (_, i) => `cluster_formation.classic_config.nodes.${i + 1} = rabbit@${name}-${i}.${peers}`,
        ),
        'default_user = admin',
        'queue_master_locator = min-masters',
        'cluster_partition_handling = pause_minority',
        '',
      ].join('\n'),
      enabled_plugins: '[rabbitmq_management].\n',
    });
    new k8s.KubeService(this.server, 'peers', {
      metadata: { name: peers },
      spec: {
        clusterIp: 'None',
        publishNotReadyAddresses: true,
        selector: this.server.selectorLabels,
        ports: [
          { name: 'epmd', port: 4369 },
          { name: 'cluster', port: 25672 },
        ],
      },
    });
    new k8s.KubeService(this.server, 'client', {
      metadata: { name },
      spec: {
        selector: this.server.selectorLabels,
        ports: [
          { name: 'amqp', port: AMQP_PORT },
          { name: 'management', port: MANAGEMENT_PORT },
        ],
      },
    });
    const probe: k8s.Probe = {
      exec: { command: ['rabbitmq-diagnostics', '-q', 'check_running'] },
      periodSeconds: 15,
      timeoutSeconds: 10,
    };
    new k8s.KubeStatefulSet(this.server, 'statefulset', {
      metadata: { name },
      spec: {
        serviceName: peers,
        replicas,
        podManagementPolicy: 'Parallel',
        selector: { matchLabels: this.server.selectorLabels },
        template: podTemplate(this.server, {
          spreadReplicas: true,
          annotations: { 'stackwright.io/config-checksum': config.checksum },
          volumes: [config.volume],
          containers: [
            {
              name: 'rabbitmq',
              image: props.image ?? cloud.image('rabbitmq', '3.13'),
              ports: [
                { name: 'amqp', containerPort: AMQP_PORT },
                { name: 'management', containerPort: MANAGEMENT_PORT },
              ],
              env: [
                envFromSecret('RABBITMQ_DEFAULT_PASS', this.adminPassword),
                envFromSecret('RABBITMQ_ERLANG_COOKIE', this.credentials.ref('erlang-cookie')),
                { name: 'RABBITMQ_USE_LONGNAME', value: 'true' },
              ],
              volumeMounts: [config.mount, { name: 'data', mountPath: '/var/lib/rabbitmq' }],
              readinessProbe: probe,
              livenessProbe: { ...probe, initialDelaySeconds: 60 },
              resources: {
                requests: { cpu: k8s.Quantity.fromString('250m'), memory: k8s.Quantity.fromString('512Mi') },
                limits: { memory: k8s.Quantity.fromString('2Gi') },
              },
            },
          ],
        }),
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: {
              accessModes: ['ReadWriteOnce'],
              resources: { requests: { storage: k8s.Quantity.fromString(props.storageSize ?? '5Gi') } },
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
