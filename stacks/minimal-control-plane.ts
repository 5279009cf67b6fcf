import { Construct } from 'constructs';
import { MariaDB, Memcached, OvsdbCluster, RabbitMQ } from '../constructs/infra';
import { Glance, Keystone, Neutron, NeutronProps, Nova, Placement } from '../constructs/openstack';
import { Cloud, CloudProps } from '../lib/model';
import { apiServiceOptions, ReferenceCloudServices } from './reference-cloud-services';

/** The services of the minimal control plane, by name. */
export type ControlPlaneServices = Pick<
  ReferenceCloudServices,
  'db' | 'mq' | 'memcached' | 'ovsdb' | 'keystone' | 'glance' | 'placement' | 'neutron' | 'nova'
>;

export interface ControlPlaneProps extends Partial<CloudProps> {
  /**
   * Replicas and images of the control plane's services.
   * @default - every service's own defaults
   */
  readonly services?: ControlPlaneServices;
  /**
   * Keystone sends notifications to its own vhost. Only for a stack that adds their consumer
   * (Barbican's keystone listener): synthesis fails on notifications nobody reads.
   * @default false
   */
  readonly keystoneNotifications?: boolean;
}

/** The services of the minimal control plane, for stacks that build on it. */
export interface ControlPlane {
  readonly cloud: Cloud;
  readonly database: MariaDB;
  readonly messaging: RabbitMQ;
  readonly cache: Memcached;
  readonly ovsdb: OvsdbCluster;
  readonly keystone: Keystone;
  readonly glance: Glance;
  readonly placement: Placement;
  readonly neutron: Neutron;
  readonly nova: Nova;
}

/** What a stack built on the control plane adds to its Neutron (the optional agents). */
export type NeutronAgentsProps = Pick<NeutronProps, 'l3Agent' | 'dhcpAgent' | 'bgpAgent'>;

/**
 * The smallest cloud that boots a VM: Keystone, Glance, Placement, Nova and Neutron/OVN with their
 * infrastructure (MariaDB/Galera, RabbitMQ, Memcached, the OVSDB raft clusters).
 * `neutronAgents` adds Neutron's optional agents (the reference cloud runs all three).
 */
export function buildControlPlane(
  scope: Construct,
  id: string,
  props: ControlPlaneProps = {},
  neutronAgents: NeutronAgentsProps = {},
): ControlPlane {
  const { services = {}, keystoneNotifications = false, ...cloudProps } = props;
  const cloud = new Cloud(scope, id, { namespace: 'openstack', ...cloudProps });
  // The quorum clusters (db, mq, ovsdb) default to three members themselves.
  const database = new MariaDB(cloud, 'db', services.db);
  const messaging = new RabbitMQ(cloud, 'mq', services.mq);
  const cache = new Memcached(cloud, 'memcached', services.memcached);
  const ovsdb = new OvsdbCluster(cloud, 'ovsdb', services.ovsdb);
  const shared = { database, cache, messaging };
  const keystone = new Keystone(cloud, 'keystone', {
    database,
    cache,
    messaging: keystoneNotifications ? messaging : undefined,
    ...services.keystone,
  });
  const glance = new Glance(cloud, 'glance', { keystone, database, cache, ...services.glance });
  const placement = new Placement(cloud, 'placement', {
    keystone,
    database,
    cache,
    ...services.placement,
  });
  const neutron = new Neutron(cloud, 'neutron', {
    keystone,
    ...shared,
    ovsdb,
    ...neutronAgents,
    ...apiServiceOptions(services.neutron),
  });
  const nova = new Nova(cloud, 'nova', {
    keystone,
    ...shared,
    placement,
    glance,
    neutron,
    ...apiServiceOptions(services.nova),
  });
  return { cloud, database, messaging, cache, ovsdb, keystone, glance, placement, neutron, nova };
}

/** The minimal control plane as a cloud. */
export function minimalControlPlane(scope: Construct, id = 'minimal', props: ControlPlaneProps = {}): Cloud {
  return buildControlPlane(scope, id, props).cloud;
}
