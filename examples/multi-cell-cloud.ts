/**
 * A cloud with two Nova cells: cell 1 on the shared database and message bus, cell 2 with a
 * RabbitMQ of its own (so a broker failure stays inside one cell), each with its own conductor,
 * database, VNC proxy and nova-compute. Hypervisors join cell 2 with the label
 * `nova.stackwright.io/cell=cell2`; every other hypervisor is in cell 1, so adding a cell never
 * relabels the existing ones.
 *
 * Per-node configuration on top: GPU hypervisors (in either cell) get their own nova-compute
 * DaemonSet with a lower CPU allocation ratio, and gateway nodes get an OVN agent with a provider
 * bridge.
 *
 * @example
 * const app = new App();
 * multiCellCloud(app);
 * app.synth();
 */
import { App } from 'cdk8s';
import { Construct } from 'constructs';
import {
  Cloud,
  CloudProps,
  Glance,
  Keystone,
  MariaDB,
  Memcached,
  Neutron,
  Nova,
  OvsdbCluster,
  Placement,
  RabbitMQ,
} from 'stackwright';

/** The label that moves a hypervisor into a cell other than cell 1. */
export const CELL_LABEL = 'nova.stackwright.io/cell';

export function multiCellCloud(scope: Construct, id = 'multi-cell', props: Partial<CloudProps> = {}): Cloud {
  const cloud = new Cloud(scope, id, { namespace: 'openstack', ...props });
  const database = new MariaDB(cloud, 'db', { replicas: 3 });
  const messaging = new RabbitMQ(cloud, 'mq', { replicas: 3 });
  const cell2Messaging = new RabbitMQ(cloud, 'mq-cell2', { replicas: 3 });
  const cache = new Memcached(cloud, 'memcached');
  const keystone = new Keystone(cloud, 'keystone', { database, cache });
  const ovsdb = new OvsdbCluster(cloud, 'ovsdb', { replicas: 3 });
  const neutron = new Neutron(cloud, 'neutron', {
    keystone,
    database,
    messaging,
    cache,
    ovsdb,
    ovnAgent: {
      configTemplates: [
        {
          nodeSelector: { 'example.com/network-gateway': 'true' },
          config: {
            ovn: {
              bridges: ['br-ex:bond1'],
              bridge_mappings: ['physnet1:br-ex'],
              cms_options: ['enable-chassis-as-gw'],
            },
          },
        },
      ],
    },
  });
  const placement = new Placement(cloud, 'placement', { keystone, database, cache });
  const glance = new Glance(cloud, 'glance', { keystone, database, cache });
  new Nova(cloud, 'nova', {
    keystone,
    database,
    messaging,
    cache,
    placement,
    glance,
    neutron,
    cells: [{}, { messaging: cell2Messaging, conductorReplicas: 3 }],
    cellNodeLabel: CELL_LABEL,
    compute: {
      config: { DEFAULT: { cpu_allocation_ratio: 8, ram_allocation_ratio: 1 } },
      configTemplates: [
        {
          nodeSelector: { 'example.com/gpu': 'true' },
          config: { DEFAULT: { cpu_allocation_ratio: 2, reserved_host_memory_mb: 8192 } },
        },
        {
          nodeSelector: { 'compute.yaook.cloud/hypervisor-type': 'qemu' },
          config: { libvirt: { virt_type: 'qemu' } },
        },
      ],
    },
  });
  return cloud;
}

if (require.main === module) {
  const app = new App();
  multiCellCloud(app);
  app.synth();
}
