// docs/testing.md, TypeScript block 1, written by test/docs/code-blocks.test.ts (UPDATE_DOCS=1): edit the doc.
import { Testing } from 'cdk8s';
import { referenceCloud } from 'stackwright';
import { deploy } from 'stackwright/runtime';
import {
  findObject,
  InMemoryCluster,
  placementOf,
  summarise,
  synthComponent,
  synthGraph,
} from 'stackwright/testing';

const cloud = referenceCloud(Testing.app(), 'prod', { services: { ironic: { enabled: false } } });

// Snapshot what matters of one component: `expect(summarise(api)).toMatchSnapshot()` in jest.
const api = summarise(synthComponent(cloud, 'keystone-api'));
const deployment = api.find((o) => o.object === 'Deployment/openstack/keystone-api');
if (deployment?.replicas !== 2) throw new Error('keystone-api should run 2 replicas');

// Edges: keystone-api waits for its database and for its schema.
const edges = synthGraph(cloud).edges.filter((e) => e.from === 'keystone-api');
for (const to of ['db', 'keystone-db-sync']) {
  if (!edges.some((e) => e.to === to)) throw new Error(`keystone-api should wait for ${to}`);
}

// Placement: nova-compute only on hypervisors, tolerating their taint.
const compute = findObject(synthComponent(cloud, 'nova-compute'), 'DaemonSet', 'nova-compute');
const { nodeSelectorTerms, tolerations } = placementOf(compute);
if (!nodeSelectorTerms.every((term) => term.includes('compute.yaook.cloud/hypervisor')))
  throw new Error(`nova-compute placed outside hypervisors: ${nodeSelectorTerms.join(' | ')}`);
if (!tolerations.includes('compute.yaook.cloud/hypervisor:NoSchedule'))
  throw new Error('nova-compute does not tolerate the hypervisor taint');

// The rollout in dependency order, on a fake API server (objects become ready at once).
void deploy(cloud, { cluster: new InMemoryCluster(), preflight: 'off' }).then((result) => {
  if (!result.ok) throw new Error('the in-memory deploy failed');
});
export {};
