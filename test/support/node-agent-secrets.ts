/**
 * The Secrets of the reference cloud's control plane that its node agents read (nova-compute,
 * ceilometer-compute, the OVN and metadata agents), each copied into the agents' namespace by a
 * Job of its own. Written out, so a Secret that starts or stops being copied fails the tests that
 * read it.
 */
export const NODE_AGENT_SECRETS = [
  'ceilometer-keystone-user',
  'ceilometer-mq',
  'neutron-metadata-secret',
  'neutron-mq',
  'nova-cell1-mq',
  'nova-keystone-user',
];
