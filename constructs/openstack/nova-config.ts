import { k8s } from 'cdk8s-plus-33';
import { IdentityEndpoint } from '../openstack-kit/endpoints';
import { KeystoneRegistration } from '../openstack-kit/keystone-registration';
import { serviceUserAuthConfig, serviceUserCredentialsEnv } from '../openstack-kit/keystone-service-user';
import { osloEnv, OsloValues } from '../openstack-kit/oslo-config';

/** The credentials of the service user Nova authenticates as towards Placement, Neutron and the others. */
export function novaServiceCredentials(registration: KeystoneRegistration): k8s.EnvVar[] {
  return ['placement', 'neutron', 'service_user'].flatMap((section) =>
    serviceUserCredentialsEnv(section, registration),
  );
}

/**
 * nova.conf as every Nova process reads it, the control plane and the compute nodes alike: the
 * service users towards Placement, Neutron and Cinder, and no notifications. oslo.cache is the
 * control plane's alone (see Nova).
 */
export function novaCommonConfig(keystone: IdentityEndpoint): OsloValues {
  const serviceUser = (section: 'placement' | 'neutron'): OsloValues => ({
    [section]: { ...serviceUserAuthConfig(keystone), valid_interfaces: ['internal'] },
  });
  // [service_user] is a plain keystoneauth section: it has no region_name.
  const serviceUserAuth = Object.fromEntries(
    Object.entries(serviceUserAuthConfig(keystone)).filter(([o]) => o !== 'region_name'),
  );
  return {
    DEFAULT: { debug: false, use_stderr: true },
    cinder: { os_region_name: keystone.region },
    glance: { valid_interfaces: ['internal'] },
    oslo_concurrency: { lock_path: '/tmp/nova' },
    // Nothing consumes Nova's notifications (see docs/configuration.md): none are sent.
    oslo_messaging_notifications: { driver: ['noop'] },
    ...serviceUser('placement'),
    ...serviceUser('neutron'),
    // Required since 2023.1: Nova sends its own token with the user's to Cinder, Neutron and
    // Glance, which accept long operations (volume detach, port binding) only with it.
    service_user: { ...serviceUserAuth, send_service_user_token: true },
  };
}

/**
 * What `nova-status upgrade check` reads besides the API database, for the API database's sync
 * Job (the template of Nova's upgrade Jobs): `[placement]` with the service user (its "Placement
 * API" check asks Placement for its version) and `[service_user]` (its "Service User Token
 * Configuration" check fails without `send_service_user_token`). Without them the check exits 2
 * and the upgrade stops at its first phase, as it did on the real node.
 */
export function novaUpgradeCheckEnv(
  keystone: IdentityEndpoint,
  registration: KeystoneRegistration,
): k8s.EnvVar[] {
  const { placement, service_user } = novaCommonConfig(keystone);
  return [
    ...osloEnv({ placement, service_user }),
    ...serviceUserCredentialsEnv('placement', registration),
    ...serviceUserCredentialsEnv('service_user', registration),
  ];
}
