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
import { MessagingEndpoint } from '../common/endpoints';
import { containerResources } from '../common/pod-template';
import { GeneratedSecret } from '../common/generated-secret';
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
    addCheck(this, () => quorumReplicasProblems(replicas, 9, 'for quorum queues'));
    this.credentials = new GeneratedSecret(this, 'credentials', {
      operatorKey: SchedulingKey.OPERATOR_ANY,
      keys: ['password', 'erlang-cookie'],
    });
    this.server = new Component(this, 'default', {
      placement: placement(SchedulingKey.INFRA_MESSAGE_QUEUE, SchedulingKey.ANY_INFRA),
    });
    this.server.dependsOn(this.credentials, 'completed');
    const name = this.server.componentName;
    this.host = name;
    const services: ClusterServices = {
      replicas,
      peerPorts: [
        { name: 'epmd', port: 4369 },
        { name: 'cluster', port: 25672 },
      ],
      clientPorts: [
        { name: 'amqp', port: AMQP_PORT },
        { name: 'management', port: MANAGEMENT_PORT },
      ],
    };
    const config = configFiles(this.server, '/etc/rabbitmq', {
      'rabbitmq.conf': [
        'cluster_formation.peer_discovery_backend = classic_config',
        ...clusterMemberHosts(this.server, services).map(
          (host, i) => `cluster_formation.classic_config.nodes.${i + 1} = rabbit@${host}`,
        ),
        'default_user = admin',
        'queue_master_locator = min-masters',
        'cluster_partition_handling = pause_minority',
        '',
      ].join('\n'),
      enabled_plugins: '[rabbitmq_management].\n',
    });
    const probe: k8s.Probe = {
      exec: { command: ['rabbitmq-diagnostics', '-q', 'check_running'] },
      periodSeconds: 15,
      timeoutSeconds: 10,
    };
    clusteredStatefulSet(this.server, {
      ...services,
      podManagementPolicy: 'Parallel',
      storage: { size: props.storageSize ?? '5Gi' },
      pod: {
        annotations: { [CONFIG_CHECKSUM_ANNOTATION]: config.checksum },
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
            resources: containerResources({ cpu: '250m', memory: '512Mi' }),
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
