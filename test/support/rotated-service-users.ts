/**
 * The reference cloud's services whose user's password rotates (`<svc>-ks-user-rotation`): every
 * one with a Keystone user but Heat, whose user stays. Written out, so a service that stops or
 * starts rotating fails the tests that read it.
 */
export const ROTATED_SERVICE_USERS = [
  'barbican',
  'ceilometer',
  'cinder',
  'glance',
  'gnocchi',
  'ironic',
  'neutron',
  'nova',
  'placement',
] as const;
