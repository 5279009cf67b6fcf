import { Construct } from 'constructs';
import { MariaDB, Memcached, OvsdbCluster, RabbitMQ } from '../constructs/infra';
import { Glance, Keystone, Neutron, Nova, PlacementService } from '../constructs/openstack';
import { Cloud, CloudProps } from '../lib/model';

/** The services of the minimal control plane, for stacks that build on it. */
export interface ControlPlane {
  readonly cloud: Cloud;
  readonly database: MariaDB;
  readonly messaging: RabbitMQ;
  readonly cache: Memcached;
  readonly ovsdb: OvsdbCluster;
  readonly keystone: Keystone;
  readonly glance: Glance;
  readonly placement: PlacementService;
  readonly neutron: Neutron;
  readonly nova: Nova;
}

/**
 * The smallest cloud that boots a VM: Keystone, Glance, Placement, Nova and Neutron/OVN with their
 * infrastructure (MariaDB/Galera, RabbitMQ, Memcached, the OVSDB raft clusters).
 *
 * @param keystoneNotifications Keystone sends notifications to its vhost; only for a stack that
 *   adds their consumer (Barbican's keystone listener).
 */
export function buildControlPlane(
  scope: Construct,
  id: string,
  props: Partial<CloudProps> = {},
  keystoneNotifications = false,
): ControlPlane {
  const cloud = new Cloud(scope, id, { namespace: 'openstack', ...props });
  const database = new MariaDB(cloud, 'db', { replicas: 3 });
  const messaging = new RabbitMQ(cloud, 'mq', { replicas: 3 });
  const cache = new Memcached(cloud, 'memcached');
  const ovsdb = new OvsdbCluster(cloud, 'ovsdb', { replicas: 3 });
  const keystone = new Keystone(cloud, 'keystone', {
    database,
    cache,
    messaging: keystoneNotifications ? messaging : undefined,
  });
  const glance = new Glance(cloud, 'glance', { keystone, database, cache });
  const placement = new PlacementService(cloud, 'placement', { keystone, database, cache });
  const neutron = new Neutron(cloud, 'neutron', { keystone, database, messaging, cache, ovsdb });
  const nova = new Nova(cloud, 'nova', { keystone, database, messaging, cache, placement, glance, neutron });
  return { cloud, database, messaging, cache, ovsdb, keystone, glance, placement, neutron, nova };
}

/** The minimal control plane as a cloud. */
export function minimalControlPlane(
  scope: Construct,
  id = 'minimal',
  props: Partial<CloudProps> = {},
): Cloud {
  return buildControlPlane(scope, id, props).cloud;
}
