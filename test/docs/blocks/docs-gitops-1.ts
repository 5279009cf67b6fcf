// docs/gitops.md, TypeScript block 1, written by test/docs/code-blocks.test.ts (UPDATE_DOCS=1): edit the doc.
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
import { exportFlux, graphFromManifests, writeExportTree } from 'stackwright';

const tree = exportFlux(graphFromManifests(cloud.toJson()), { repoPath: 'clusters/prod/openstack' });
writeExportTree(tree, 'clusters/prod/openstack'); // a tree is plain data: { path, content }[]
export {};
