// docs/configuration.md, TypeScript block 1, written by test/docs/code-blocks.test.ts (UPDATE_DOCS=1): edit the doc.
import { App } from 'cdk8s';
import { Cloud, Glance, Keystone, MariaDB, Memcached, Neutron, Nova, Placement, RabbitMQ } from 'stackwright';
declare const app: App;
declare const cloud: Cloud;
declare const inputs: {
  keystone: Keystone;
  database: MariaDB;
  messaging: RabbitMQ;
  cache: Memcached;
  placement: Placement;
  glance: Glance;
  neutron: Neutron;
};
// ---- the block
new Nova(cloud, 'nova', {
  ...inputs,
  config: {
    DEFAULT: { cpu_allocation_ratio: 4, max_concurrent_builds: 4 },
    pci: { alias: ['{"name":"gpu","vendor_id":"10de","product_id":"1eb8"}'] },
  },
});
export {};
