import { App } from 'cdk8s';
import { MariaDB, Memcached, RabbitMQ } from '../../../constructs/infra';
import { Glance, Keystone, Placement } from '../../../constructs/openstack';
import { OpenStackRelease } from '../../../lib/graph';
import { Cloud } from '../../../lib/model';
import { LOCAL_IMAGES, LOCAL_REGISTRY } from './images';

/** The StorageClass of the real node's local-path provisioner (scripts/cluster/manifests-real/). */
export const REAL_STORAGE_CLASS = 'local-path';

/** The cloud the real-node suite deploys, with handles on what the checks need. */
export interface RealCloud {
  readonly app: App;
  readonly cloud: Cloud;
  readonly database: MariaDB;
  readonly messaging: RabbitMQ;
  readonly cache: Memcached;
  readonly keystone: Keystone;
  readonly glance: Glance;
  readonly placement: Placement;
}

export interface RealCloudOptions {
  /**
   * Members of Galera and of RabbitMQ. The point of three is cluster formation, which
   * upgrade.real.test.ts proves; a suite about something else saves the CPU with one.
   * @default 3
   */
  readonly clusterReplicas?: number;
  /** The OpenStack release (the upgrade suite deploys 2024.2, then 2025.1). @default the package's default */
  readonly release?: OpenStackRelease;
  /** Replicas of Keystone's and Placement's APIs (the upgrade suite rolls two; Glance has one). @default 1 */
  readonly apiReplicas?: number;
}

/**
 * Galera and RabbitMQ with their default three members (the point is cluster formation), one replica
 * of each API (one node, two cores) and small volumes on the real node's StorageClass. No service
 * sends notifications: nothing here would consume them, so RabbitMQ stands on its own.
 */
export function realCloud(outdir: string, namespace: string, options: RealCloudOptions = {}): RealCloud {
  const replicas = options.clusterReplicas ?? 3;
  const apiReplicas = options.apiReplicas ?? 1;
  const app = new App({ outdir });
  const cloud = new Cloud(app, 'real', {
    namespace,
    ...(options.release ? { release: options.release } : {}),
    imageRegistry: LOCAL_REGISTRY,
    toolboxImage: LOCAL_IMAGES.toolbox,
  });
  const database = new MariaDB(cloud, 'db', {
    replicas,
    storageSize: '1Gi',
    storageClassName: REAL_STORAGE_CLASS,
    image: LOCAL_IMAGES.mariadb,
  });
  const messaging = new RabbitMQ(cloud, 'mq', {
    replicas,
    storageSize: '1Gi',
    image: LOCAL_IMAGES.rabbitmq,
  });
  const cache = new Memcached(cloud, 'memcached', {
    replicas: 1,
    memoryMiB: 64,
    image: LOCAL_IMAGES.memcached,
  });
  const keystone = new Keystone(cloud, 'keystone', { database, cache, replicas: apiReplicas });
  const glance = new Glance(cloud, 'glance', {
    keystone,
    database,
    cache,
    // One pod: its image store is a ReadWriteOnce claim (local-path has no ReadWriteMany), which
    // the construct refuses to share between replicas. It still rolls without a gap: the new pod
    // starts (same node, same claim) before the old one stops.
    replicas: 1,
    storage: { type: 'pvc', size: '2Gi', storageClassName: REAL_STORAGE_CLASS, accessMode: 'ReadWriteOnce' },
  });
  const placement = new Placement(cloud, 'placement', { keystone, database, cache, replicas: apiReplicas });
  return { app, cloud, database, messaging, cache, keystone, glance, placement };
}
