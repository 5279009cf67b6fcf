import { k8s } from 'cdk8s-plus-33';
import { Construct } from 'constructs';
import { Cloud, PropsSpec, Rules } from '../../lib/model';
import { placement, SchedulingKey } from '../../lib/scheduling';
import { ClusteredServer } from './infra-service';
import {
  ClusterServices,
  clusteredStatefulSet,
  clusterMemberHosts,
  clusterServiceName,
  memberProbes,
  quorumReplicas,
} from '../kube/clustered-stateful-set';
import { CONFIG_CHECKSUM_ANNOTATION, configFiles } from '../kube/config-files';
import {
  RABBITMQ_ALIVE_COMMAND,
  RABBITMQ_CONFIG_DIR,
  RABBITMQ_COOKIE_DIR,
  RABBITMQ_DATA_DIR,
  RABBITMQ_RUN_DIR,
  RabbitMQMember,
  rabbitmqConfig,
  rabbitmqEnvironment,
  rabbitmqReadyCommand,
  rabbitmqStartScript,
} from './rabbitmq-scripts';
import { MessagingEndpoint } from '../openstack-kit/endpoints';
import { containerResources } from '../kube/pod-template';
import { GeneratedSecret } from '../kube/generated-secret';
import { envFromSecret, SecretRef } from '../kube/secret-ref';

export interface RabbitMQProps {
  /** Cluster members; odd, for quorum queues. @default 3 */
  readonly replicas?: number;
  /** @default '5Gi' */
  readonly storageSize?: string;
  /** @default the cloud's registry `rabbitmq:3.13` */
  readonly image?: string;
}

const RABBITMQ_PROPS: PropsSpec<RabbitMQProps> = {
  replicas: quorumReplicas(9, 'for quorum queues'),
  storageSize: Rules.quantity(),
  image: Rules.image(),
};

const AMQP_PORT = 5672;
const MANAGEMENT_PORT = 15672;

/**
 * RabbitMQ for oslo.messaging: a clustered StatefulSet whose members find each other by classic
 * peer discovery over the headless Service (long node names `rabbit@<pod>.<peers>`; a member's
 * first start waits for a running peer, see `rabbitmq-scripts.ts`), a client Service with AMQP and
 * the management API (used by the per-service vhost/user Jobs, see `ServiceMessaging`), and a
 * PodDisruptionBudget. Admin password and Erlang cookie are generated in the cluster; the cookie
 * reaches Erlang as an owner-only file.
 */
export class RabbitMQ extends ClusteredServer implements MessagingEndpoint {
  readonly credentials: GeneratedSecret;
  readonly host: string;
  readonly port = AMQP_PORT;
  readonly managementPort = MANAGEMENT_PORT;
  readonly adminUser = 'admin';

  constructor(scope: Construct, id: string, props: RabbitMQProps = {}) {
    super(scope, id, {
      appName: 'rabbitmq',
      props,
      propsSpec: RABBITMQ_PROPS,
      placement: placement(SchedulingKey.INFRA_MESSAGE_QUEUE, SchedulingKey.ANY_INFRA),
    });
    const cloud = Cloud.of(this);
    const replicas = props.replicas ?? 3;
    this.credentials = this.generatedSecret('credentials', ['password', 'erlang-cookie']);
    const name = this.server.componentName;
    // Qualified: node agents reach the bus from the agents' namespace.
    this.host = cloud.serviceHost(name);
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
    const member: RabbitMQMember = {
      hosts: clusterMemberHosts(this.server, services),
      peersService: clusterServiceName(this.server, services),
      adminUser: this.adminUser,
    };
    const config = configFiles(this.server, RABBITMQ_CONFIG_DIR, {
      'rabbitmq.conf': rabbitmqConfig(member),
      enabled_plugins: '[rabbitmq_management].\n',
      'start.sh': rabbitmqStartScript(member),
    });
    const alive: k8s.Probe = { exec: { command: [...RABBITMQ_ALIVE_COMMAND] }, timeoutSeconds: 15 };
    clusteredStatefulSet(this.server, {
      ...services,
      // A majority must survive the loss of a node: one member per node.
      spread: 'even',
      // Members find each other on their own (start.sh); after a full stop each waits for the others.
      podManagementPolicy: 'Parallel',
      storage: { size: props.storageSize ?? '5Gi' },
      pod: {
        annotations: { [CONFIG_CHECKSUM_ANNOTATION]: config.checksum },
        volumes: [
          config.volume,
          {
            name: 'erlang-cookie',
            secret: {
              secretName: this.credentials.secretName,
              items: [{ key: 'erlang-cookie', path: 'erlang-cookie' }],
              defaultMode: 0o400,
            },
          },
          { name: 'run', emptyDir: {} },
        ],
        containers: [
          {
            name: 'rabbitmq',
            image: props.image ?? cloud.image('rabbitmq', '3.13'),
            command: ['/bin/sh', `${RABBITMQ_CONFIG_DIR}/start.sh`],
            ports: [
              { name: 'amqp', containerPort: AMQP_PORT },
              { name: 'management', containerPort: MANAGEMENT_PORT },
            ],
            env: [
              { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
              ...rabbitmqEnvironment(member),
              envFromSecret('RABBITMQ_DEFAULT_PASS', this.adminPassword),
            ],
            volumeMounts: [
              config.mount,
              { name: 'erlang-cookie', mountPath: RABBITMQ_COOKIE_DIR, readOnly: true },
              { name: 'data', mountPath: RABBITMQ_DATA_DIR },
              { name: 'run', mountPath: RABBITMQ_RUN_DIR },
            ],
            // A member waits for a peer before its first start, and for the others after a full
            // stop (RabbitMQ's own wait is 5 minutes). Each check starts an Erlang VM: seldom.
            ...memberProbes({
              alive,
              ready: {
                exec: { command: rabbitmqReadyCommand(replicas) },
                periodSeconds: 20,
                timeoutSeconds: 15,
              },
              startupAttempts: 90,
            }),
            resources: containerResources({ cpu: '250m', memory: '512Mi' }),
          },
        ],
      },
    });
  }

  get adminPassword(): SecretRef {
    return this.credentials.ref('password');
  }
}
