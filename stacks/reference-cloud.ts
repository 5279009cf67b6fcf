import { Construct } from 'constructs';
import { Barbican, Ceilometer, Cinder, Gnocchi, Heat, InfraIronic } from '../constructs/openstack';
import { Cloud, CloudProps } from '../lib/model';
import { buildControlPlane } from './minimal-control-plane';

/** The Secret holding the Ceph keyring of the `cinder` client; create it before deploying. */
export const CINDER_CEPH_KEYRING = { secretName: 'ceph-cinder', key: 'keyring' };

/**
 * The reference cloud: every service Stackwright models, wired with the canonical dependency edges,
 * on top of the minimal control plane. `cdk8s.yaml` synthesises it; users copy it as a starting point.
 */
export function referenceCloud(scope: Construct, id = 'reference', props: Partial<CloudProps> = {}): Cloud {
  const { cloud, database, messaging, cache, keystone, glance, neutron, nova } = buildControlPlane(
    scope,
    id,
    props,
    true, // Barbican's keystone listener below consumes Keystone's notifications
  );
  const shared = { keystone, database, messaging, cache };
  new Cinder(cloud, 'cinder', {
    ...shared,
    volumeBackends: [
      {
        type: 'rbd',
        name: 'ceph',
        pool: 'volumes',
        ceph: { monitors: ['ceph-mon.ceph:6789'], user: 'cinder', keyring: CINDER_CEPH_KEYRING },
      },
    ],
  });
  new Barbican(cloud, 'barbican', shared);
  new Heat(cloud, 'heat', shared);
  const gnocchi = new Gnocchi(cloud, 'gnocchi', { keystone, database, cache });
  new Ceilometer(cloud, 'ceilometer', { keystone, messaging, cache, gnocchi, nova });
  new InfraIronic(cloud, 'ironic', {
    ...shared,
    glance,
    neutron,
    networks: { provisioning: { name: 'provisioning' } },
  });
  return cloud;
}
