/**
 * Every scheduling key used by the Yaook operators (yaook.op.common.SchedulingKey), same names and
 * string values. A key is both the node label a component requires and the taint key it tolerates.
 */
export const SchedulingKey = {
  // Operators
  /** Used to schedule any of the Yaook operator Jobs. */
  OPERATOR_ANY: 'operator.yaook.cloud/any',
  /** Used to schedule yaook.op.barbican Jobs. */
  OPERATOR_BARBICAN: 'operator.yaook.cloud/barbican',
  /** Used to schedule yaook.op.cinder Jobs. */
  OPERATOR_CINDER: 'operator.yaook.cloud/cinder',
  /** Used to schedule the Jobs of the configured-daemon-set operator. */
  OPERATOR_CONFIGURED_DAEMON_SET: 'operator.yaook.cloud/configured-daemon-set',
  /** Used to schedule yaook.op.glance Jobs. */
  OPERATOR_GLANCE: 'operator.yaook.cloud/glance',
  /** Used to schedule yaook.op.heat Jobs. */
  OPERATOR_HEAT: 'operator.yaook.cloud/heat',
  /** Used to schedule yaook.op.infra_ironic Jobs. */
  OPERATOR_INFRA_IRONIC: 'operator.yaook.cloud/infra-ironic',
  /** Used to schedule yaook.op.keystone Jobs. */
  OPERATOR_KEYSTONE: 'operator.yaook.cloud/keystone',
  /** Used to schedule yaook.op.neutron Jobs. */
  OPERATOR_NEUTRON: 'operator.yaook.cloud/neutron',
  /** Used to schedule yaook.op.nova Jobs. */
  OPERATOR_NOVA: 'operator.yaook.cloud/nova',
  /** Used to schedule yaook.op.gnocchi Jobs. */
  OPERATOR_GNOCCHI: 'operator.yaook.cloud/gnocchi',
  /** Used to schedule yaook.op.ceilometer Jobs. */
  OPERATOR_CEILOMETER: 'operator.yaook.cloud/ceilometer',

  // Infrastructure services
  /** Used to schedule any infrastructure component. */
  ANY_INFRA: 'infra.yaook.cloud/any',
  /** Used to schedule database-related services. */
  INFRA_DATABASE: 'infra.yaook.cloud/db',
  /** Used to schedule ovsdb-server raft clusters. */
  INFRA_OVSDB_CLUSTER: 'infra.yaook.cloud/ovsdbcluster',
  /** Used to schedule services related to or implementing message queues. */
  INFRA_MESSAGE_QUEUE: 'infra.yaook.cloud/mq',

  // API services
  /** Used to schedule any of the OpenStack API service deployments. */
  ANY_API: 'any.yaook.cloud/api',
  /** Used to schedule the cinder-api Deployment. */
  BLOCK_STORAGE_API: 'block-storage.yaook.cloud/api',
  /** Used to schedule the glance-api Deployment. */
  IMAGE_API: 'image.yaook.cloud/api',
  /** Used to schedule the infra-ironic-api Deployment. */
  INFRA_BARE_METAL_API: 'infra-bare-metal.yaook.cloud/api',
  /** Used to schedule the keystone-api Deployment. */
  IDENTITY_API: 'identity.yaook.cloud/api',
  /** Used to schedule the neutron-api Deployment. */
  NETWORK_API: 'network.yaook.cloud/api',
  /** Used to schedule the nova-api Deployment. */
  COMPUTE_API: 'compute.yaook.cloud/api',
  /** Used to schedule the nova-metadata-api Deployment. */
  COMPUTE_METADATA_API: 'compute.yaook.cloud/metadata-api',
  /** Used to schedule the barbican-api deployment. */
  KEY_MANAGER_API: 'key-manager.yaook.cloud/api',
  /** Used to schedule the placement-api Deployment. */
  PLACEMENT_API: 'placement.yaook.cloud/api',
  /** Used to schedule gnocchi-api Deployment. */
  GNOCCHI_API: 'gnocchi.yaook.cloud/api',

  // Barbican supporting services
  /** Used to schedule any of the barbican supporting services (barbican-keystone-listener). */
  KEY_MANAGER_BARBICAN_ANY_SERVICE: 'key-manager.yaook.cloud/barbican-any-service',
  /** Used to schedule the barbican-keystone-listener service. */
  KEY_MANAGER_BARBICAN_KEYSTONE_LISTENER: 'key-manager.yaook.cloud/barbican-keystone-listener',

  // Cinder supporting services
  /** Used to schedule any of the Cinder supporting services (backup, volume, scheduler). */
  BLOCK_STORAGE_CINDER_ANY_SERVICE: 'block-storage.yaook.cloud/cinder-any-service',
  /** Used to schedule the cinder-backup service. */
  BLOCK_STORAGE_CINDER_BACKUP: 'block-storage.yaook.cloud/cinder-backup',
  /** Used to schedule the cinder-scheduler service. */
  BLOCK_STORAGE_CINDER_SCHEDULER: 'block-storage.yaook.cloud/cinder-scheduler',
  /** Used to schedule the cinder-volume service. */
  BLOCK_STORAGE_CINDER_VOLUME: 'block-storage.yaook.cloud/cinder-volume',

  // Infrastructure Ironic supporting services
  /** Used to schedule any of the Ironic supporting services for the infrastructure bare metal service. */
  INFRA_BARE_METAL_IRONIC_ANY_SERVICE: 'infra-bare-metal.yaook.cloud/ironic-any-service',
  /** Used to schedule the infra-ironic-conductor Statefulset. */
  INFRA_BARE_METAL_IRONIC_CONDUCTOR: 'infra-bare-metal.yaook.cloud/conductor',

  // Nova supporting services
  /** Used to schedule any of the Nova supporting services (conductor, scheduler). */
  COMPUTE_NOVA_ANY_SERVICE: 'compute.yaook.cloud/nova-any-service',
  /** Used to schedule the nova-conductor Deployment. */
  COMPUTE_NOVA_CONDUCTOR: 'compute.yaook.cloud/nova-conductor',
  /** Used to schedule the nova-scheduler Deployment. */
  COMPUTE_NOVA_SCHEDULER: 'compute.yaook.cloud/nova-scheduler',
  /** Used to schedule the nova-consoleauth Deployment. */
  COMPUTE_NOVA_CONSOLEAUTH: 'compute.yaook.cloud/nova-consoleauth',
  /** Used to schedule the vnc Deployment. */
  COMPUTE_VNC: 'compute.yaook.cloud/vnc',

  // Network services
  /** Used to schedule the neutron-l2-agent Statefulset, among other scheduling keys. */
  NETWORK_NEUTRON_L2_AGENT: 'network.yaook.cloud/neutron-l2-agent',
  /** Used to schedule the neutron-l3-agent Statefulset. */
  NETWORK_NEUTRON_L3_AGENT: 'network.yaook.cloud/neutron-l3-agent',
  /** Used to schedule the neutron-dhcp-agent Statefulset. */
  NETWORK_NEUTRON_DHCP_AGENT: 'network.yaook.cloud/neutron-dhcp-agent',
  /** Used to schedule the neutron-bgp-dragent Statefulset. */
  NETWORK_NEUTRON_BGP_DRAGENT: 'network.yaook.cloud/neutron-bgp-dragent',
  /** Used to schedule the neutron-bgp-dragent or neutron-ovn-bgp Statefulset. */
  NETWORK_NEUTRON_BGP_AGENT: 'network.yaook.cloud/neutron-bgp-agent',
  /** Used to schedule the ovn-northd Deployment. */
  NETWORK_NEUTRON_NORTHD: 'network.yaook.cloud/neutron-northd',
  /** Used to schedule the ovn-controller, openvswitchd and ovs-db Statefulsets. */
  NETWORK_NEUTRON_OVN_AGENT: 'network.yaook.cloud/neutron-ovn-agent',

  // Compute services
  /** Used to schedule the nova-compute and libvirt Statefulset. */
  COMPUTE_HYPERVISOR: 'compute.yaook.cloud/hypervisor',

  // Gnocchi supporting services
  /** Used to schedule the gnocchi-metricd Deployment. */
  GNOCCHI_METRICD: 'gnocchi.yaook.cloud/metricd',

  // Ceilometer services
  /** Used to schedule any of the Ceilometer services (central, notification). */
  CEILOMETER_ANY_SERVICE: 'ceilometer.yaook.cloud/ceilometer-any-service',
  /** Used to schedule the ceilometer-notification Deployment. */
  CEILOMETER_NOTIFICATION: 'ceilometer.yaook.cloud/notification',
  /** Used to schedule the ceilometer-central Deployment. */
  CEILOMETER_CENTRAL: 'ceilometer.yaook.cloud/central',
} as const;

/** One of the scheduling keys' string values, e.g. `'identity.yaook.cloud/api'`. */
export type SchedulingKey = (typeof SchedulingKey)[keyof typeof SchedulingKey];

const ALL_KEYS: ReadonlySet<string> = new Set(Object.values(SchedulingKey));

/** True when `value` is one of the Yaook scheduling keys. */
export function isSchedulingKey(value: string): value is SchedulingKey {
  return ALL_KEYS.has(value);
}
