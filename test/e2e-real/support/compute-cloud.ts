import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { dump, loadAll } from 'js-yaml';
import { OvsdbCluster } from '../../../constructs/infra';
import { Neutron, Nova } from '../../../constructs/openstack';
import { DEFAULT_RELEASE, OpenStackRelease } from '../../../lib/graph';
import { LOCAL_IMAGES, novaComputeImage } from './images';
import { REAL_STORAGE_CLASS, realCloud, RealCloud } from './real-cloud';
import { PUBLIC_PHYSNET } from './tempest';

/** The real-node cloud with compute and networking, with handles on what the checks need. */
export interface ComputeCloud extends RealCloud {
  readonly ovsdb: OvsdbCluster;
  readonly neutron: Neutron;
  readonly nova: Nova;
}

/**
 * The real-node services (one Galera and one RabbitMQ member: clustering is upgrade.real.test.ts's
 * point) plus Neutron with OVN and Nova with one cell, every control-plane component once, on the
 * real node. What this machine kind needs differently from production is only what the constructs
 * offer as props (docs/images.md, "A server boot rehearsed without Kubernetes"):
 * - `compute.virtType: 'qemu'`: `/dev/kvm` here is PVM, on which QEMU's KVM accelerator aborts;
 * - `ovnAgent.datapathType: 'netdev'` with `userspaceTso`: there is no openvswitch kernel module,
 *   and without TSO guests' TCP arrives with bad checksums;
 * - Debian's OVN 23.03, libvirt 9.0 and the nova-compute image (with the libvirt binding) of the
 *   release: OVN and libvirt have tags of their own, so an upgrade of the release rolls neither;
 * - instances' VNC on the node's address (`$my_ip`, the CNI bridge) rather than on every address of
 *   this shared machine;
 * - the scheduler maps new hypervisors every 15 s instead of 300 s: the cell-setup Job
 *   (`discover_hosts`) starts once nova-compute's pod is ready, which can be before the service
 *   has recorded its compute node, and the suite should not wait five minutes for the next round.
 */
export function computeCloud(
  outdir: string,
  namespace: string,
  release: OpenStackRelease = DEFAULT_RELEASE,
): ComputeCloud {
  const base = realCloud(outdir, namespace, { clusterReplicas: 1, release });
  const { cloud, keystone, database, messaging, cache, glance, placement } = base;
  const ovsdb = new OvsdbCluster(cloud, 'ovsdb', {
    replicas: 1,
    storageSize: '256Mi',
    storageClassName: REAL_STORAGE_CLASS,
    image: LOCAL_IMAGES.ovn,
  });
  const neutron = new Neutron(cloud, 'neutron', {
    keystone,
    database,
    messaging,
    cache,
    ovsdb,
    apiReplicas: 1,
    northdReplicas: 1,
    ovnImage: LOCAL_IMAGES.ovn,
    ovnAgent: {
      datapathType: 'netdev',
      userspaceTso: true,
      // An external network for Tempest's routers and floating IPs (no uplink: br-ex has no port),
      // with the node as OVN's gateway chassis.
      config: {
        ovn: {
          encap_type: 'geneve',
          bridges: ['br-ex'],
          bridge_mappings: [`${PUBLIC_PHYSNET}:br-ex`],
          cms_options: ['enable-chassis-as-gw'],
        },
      },
    },
  });
  const nova = new Nova(cloud, 'nova', {
    keystone,
    database,
    messaging,
    cache,
    placement,
    glance,
    neutron,
    apiReplicas: 1,
    metadataReplicas: 1,
    schedulerReplicas: 1,
    conductorReplicas: 1,
    vncReplicas: 1,
    config: { scheduler: { discover_hosts_in_cells_interval: 15 } },
    compute: {
      virtType: 'qemu',
      image: novaComputeImage(release),
      libvirtImage: LOCAL_IMAGES.libvirt,
      config: { vnc: { server_listen: '$my_ip' } },
    },
  });
  return { ...base, ovsdb, neutron, nova };
}

interface PodOwner {
  readonly kind: string;
  readonly spec?: {
    readonly template?: {
      readonly spec?: { readonly containers?: { resources?: { requests?: Record<string, string> } }[] };
    };
  };
}

/**
 * Divides every container's CPU request in the synthesised manifests of `outdir` by `divisor`. The
 * production requests of this cloud add up to 2.5 cores and the real node has two, shared with the
 * control plane: unscaled, half the APIs stay Pending on `Insufficient cpu`. Only the scheduler's
 * bookkeeping changes (no CPU limits are set); the manifests are otherwise the constructs' own.
 */
export function scaleCpuRequests(outdir: string, divisor: number): void {
  for (const file of readdirSync(outdir).filter((f) => f.endsWith('.yaml'))) {
    const documents = loadAll(readFileSync(path.join(outdir, file), 'utf8')) as (PodOwner | null)[];
    for (const document of documents) {
      for (const container of document?.spec?.template?.spec?.containers ?? []) {
        const cpu = container.resources?.requests?.cpu;
        if (cpu === undefined || !container.resources?.requests) continue;
        const millis = cpu.endsWith('m') ? Number(cpu.slice(0, -1)) : Number(cpu) * 1000;
        container.resources.requests.cpu = `${Math.max(1, Math.floor(millis / divisor))}m`;
      }
    }
    writeFileSync(
      path.join(outdir, file),
      documents.map((d) => dump(d, { lineWidth: -1, noRefs: true })).join('---\n'),
    );
  }
}
