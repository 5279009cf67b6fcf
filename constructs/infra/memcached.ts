import { k8s } from 'cdk8s-plus-33';
import { Construct } from 'constructs';
import { Cloud, PropsSpec, Rules } from '../../lib/model';
import { groupPlacement, SchedulingKey } from '../../lib/scheduling';
import { ClusteredServer } from './infra-service';
import { CacheEndpoint } from '../openstack-kit/endpoints';
import { resourcesWithMemoryLimit } from '../kube/memory-limit';
import { ClusterServices, clusteredStatefulSet, clusterMemberHosts } from '../kube/clustered-stateful-set';

export interface MemcachedProps {
  /** @default 2 */
  readonly replicas?: number;
  /** Memory for items per server, in MiB. @default 512 */
  readonly memoryMiB?: number;
  /** @default 'docker.io/library/memcached:1.6' */
  readonly image?: string;
}

const PORT = 11211;

const MEMCACHED_PROPS: PropsSpec<MemcachedProps> = {
  replicas: Rules.count({ min: 1, max: 16 }),
  memoryMiB: Rules.count({ min: 64, max: 65536 }),
  image: Rules.image(),
};

/**
 * Memcached for oslo.cache: a StatefulSet behind a headless Service, so clients list every server
 * by its stable name. Yaook has no dedicated caching key in its SchedulingKey set, so it schedules
 * by the infrastructure group key alone.
 */
export class Memcached extends ClusteredServer implements CacheEndpoint {
  readonly servers: readonly string[];

  constructor(scope: Construct, id: string, props: MemcachedProps = {}) {
    super(scope, id, {
      appName: 'memcached',
      props,
      propsSpec: MEMCACHED_PROPS,
      placement: groupPlacement(SchedulingKey.ANY_INFRA),
    });
    const replicas = props.replicas ?? 2;
    const memoryMiB = props.memoryMiB ?? 512;
    const services: ClusterServices = {
      replicas,
      clientPorts: [{ name: 'memcached', port: PORT, targetPort: k8s.IntOrString.fromNumber(PORT) }],
    };
    // Servers do not talk to each other: clients list every one, through the headless Service.
    const cloud = Cloud.of(this);
    // Qualified: node agents read the cache from the agents' namespace.
    this.servers = clusterMemberHosts(this.server, services).map(
      (host) => `${cloud.serviceHost(host)}:${PORT}`,
    );
    const probe: k8s.Probe = { tcpSocket: { port: k8s.IntOrString.fromNumber(PORT) }, periodSeconds: 10 };
    clusteredStatefulSet(this.server, {
      ...services,
      podManagementPolicy: 'Parallel',
      // A cache: servers lost together cost hits, not data.
      spread: 'preferred',
      pod: {
        containers: [
          {
            name: 'memcached',
            image: props.image ?? 'docker.io/library/memcached:1.6',
            // Stated, not the image's entrypoint: the same command runs on every memcached image.
            command: ['memcached'],
            args: ['-m', String(memoryMiB), '-p', String(PORT)],
            ports: [{ name: 'memcached', containerPort: PORT }],
            readinessProbe: probe,
            livenessProbe: probe,
            resources: resourcesWithMemoryLimit(
              { cpu: '50m', memory: `${memoryMiB + 64}Mi` },
              `${memoryMiB + 128}Mi`,
            ),
          },
        ],
      },
    });
  }
}
