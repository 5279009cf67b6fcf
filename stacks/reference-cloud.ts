import { Construct } from 'constructs';
import { CephClient } from '../constructs';
import { Barbican, Ceilometer, Cinder, Gnocchi, Heat, InfraIronic } from '../constructs/openstack';
import { Cloud } from '../lib/model';
import { buildControlPlane, ControlPlaneProps } from './minimal-control-plane';
import { apiServiceOptions, ReferenceCloudServices, serviceEnabled } from './reference-cloud-services';

/**
 * The Secret holding the Ceph keyring of the `cinder` client; create it before deploying. The client
 * needs `rwx` on the pools `volumes` (volumes) and `backups` (cinder-backup).
 */
export const CINDER_CEPH_KEYRING = { secretName: 'ceph-cinder', key: 'keyring' };

/** The Ceph cluster of the reference cloud's volumes and backups, reached as the `cinder` client. */
const CINDER_CEPH: CephClient = {
  monitors: ['ceph-mon.ceph:6789'],
  user: 'cinder',
  keyring: CINDER_CEPH_KEYRING,
};

export interface ReferenceCloudProps extends Omit<ControlPlaneProps, 'keystoneNotifications'> {
  /**
   * Replicas, images and which optional services (cinder, barbican, heat, gnocchi, ceilometer,
   * ironic) are part of the cloud.
   * @default - every service enabled, with its own defaults
   */
  readonly services?: ReferenceCloudServices;
}

/**
 * The reference cloud: every service Stackwright models, wired with the canonical dependency edges,
 * on top of the minimal control plane, with a component on every Yaook scheduling key that has one
 * (Neutron's L3, DHCP and OVN BGP agents; Cinder's backup, to the Ceph pool `backups` next to the
 * volumes). `cdk8s.yaml` synthesises it; `stackwright init` starts a project from it.
 *
 * @example
 * const app = new App();
 * const cloud = referenceCloud(app, 'prod', { namespace: 'openstack', services: { heat: { enabled: false } } });
 * app.synth();
 */
export function referenceCloud(scope: Construct, id = 'reference', props: ReferenceCloudProps = {}): Cloud {
  const services = props.services ?? {};
  if (serviceEnabled(services.ceilometer) && !serviceEnabled(services.gnocchi)) {
    throw new Error(
      `[${id}] services.ceilometer publishes its metrics to Gnocchi, but services.gnocchi.enabled is false; enable gnocchi or set services.ceilometer.enabled to false`,
    );
  }
  const { cloud, database, messaging, cache, keystone, glance, neutron, nova } = buildControlPlane(
    scope,
    id,
    {
      ...props,
      // Barbican's keystone listener below is their consumer.
      keystoneNotifications: serviceEnabled(services.barbican),
    },
    // Every Neutron agent Stackwright models: the DHCP agent also serves Ironic's provisioning network.
    { l3Agent: {}, dhcpAgent: {}, bgpAgent: {} },
  );
  const shared = { keystone, database, messaging, cache };
  if (serviceEnabled(services.cinder)) {
    new Cinder(cloud, 'cinder', {
      ...shared,
      volumeBackends: [{ type: 'rbd', name: 'ceph', pool: 'volumes', ceph: CINDER_CEPH }],
      // A pool of its own: backups can get other OSDs (a CRUSH rule) and a quota of their own.
      backup: { type: 'ceph', pool: 'backups', ceph: CINDER_CEPH },
      ...apiServiceOptions(services.cinder),
    });
  }
  if (serviceEnabled(services.barbican))
    new Barbican(cloud, 'barbican', { ...shared, ...apiServiceOptions(services.barbican) });
  if (serviceEnabled(services.heat))
    new Heat(cloud, 'heat', { ...shared, ...apiServiceOptions(services.heat) });
  if (serviceEnabled(services.gnocchi)) {
    const gnocchi = new Gnocchi(cloud, 'gnocchi', {
      keystone,
      database,
      cache,
      ...apiServiceOptions(services.gnocchi),
    });
    if (serviceEnabled(services.ceilometer)) {
      new Ceilometer(cloud, 'ceilometer', {
        keystone,
        messaging,
        cache,
        gnocchi,
        nova,
        image: services.ceilometer?.image,
      });
    }
  }
  if (serviceEnabled(services.ironic)) {
    new InfraIronic(cloud, 'ironic', {
      ...shared,
      glance,
      neutron,
      networks: { provisioning: { name: 'provisioning' } },
      ...apiServiceOptions(services.ironic),
    });
  }
  return cloud;
}
