import { preflight } from '../../../lib/runtime/operations/preflight';
import { freshCluster, HYPERVISOR, node, yaookScheduling } from '../diagnose/fixtures';
import { component, daemonSet, deployment, testGraph, job } from '../support/manifests';
import { KubeObject } from '../../../lib/graph';

function withPodSpec(workload: KubeObject, podSpec: Record<string, unknown>): KubeObject {
  const spec = workload.spec as { template: { spec: Record<string, unknown> } };
  return {
    ...workload,
    spec: { ...spec, template: { ...spec.template, spec: { ...spec.template.spec, ...podSpec } } },
  };
}

describe('preflight', () => {
  test('reports each workload no node can host, with the kubectl label that fixes it', () => {
    // GIVEN: keystone-api can run (any.yaook.cloud/api is on worker-1), nova-compute cannot.
    const nodes = [
      ...freshCluster().filter((n) => n.metadata.name !== 'worker-1'),
      node('worker-1', { 'any.yaook.cloud/api': 'true' }),
    ];
    const graph = testGraph(
      component(
        'keystone-api',
        {},
        withPodSpec(
          deployment('keystone-api'),
          yaookScheduling(['identity.yaook.cloud/api', 'any.yaook.cloud/api']),
        ),
      ),
      component(
        'keystone-db-sync',
        {},
        withPodSpec(
          job('keystone-db-sync'),
          yaookScheduling(['identity.yaook.cloud/api', 'any.yaook.cloud/api']),
        ),
      ),
      component(
        'nova-compute',
        {},
        withPodSpec(daemonSet('nova-compute'), yaookScheduling([HYPERVISOR], true)),
      ),
      component(
        'nova-scheduler',
        {},
        withPodSpec(deployment('nova-scheduler'), yaookScheduling(['compute.yaook.cloud/nova-scheduler'])),
      ),
    );

    // WHEN
    const findings = preflight(graph, nodes);

    // THEN
    expect(findings.map((f) => [f.component, f.ref, f.severity])).toEqual([
      ['nova-compute', 'DaemonSet/openstack/nova-compute', 'warning'],
      ['nova-scheduler', 'Deployment/openstack/nova-scheduler', 'error'],
    ]);
    expect(findings[1].message).toBe(
      'no node carries the scheduling label compute.yaook.cloud/nova-scheduler; fix: kubectl label node <a-suitable-node> compute.yaook.cloud/nova-scheduler=true; nodes whose taints it tolerates: worker-1, worker-2',
    );
    expect(findings[0].message).toContain(
      `kubectl label node <a-suitable-node> ${HYPERVISOR}=true maintenance.yaook.cloud/ovn-maintenance=not-required`,
    );
  });

  test('a forced-downscale DaemonSet is reported as information only', () => {
    // GIVEN
    const graph = testGraph(
      component(
        'ovn-agent',
        {},
        withPodSpec(daemonSet('ovn-agent'), {
          nodeSelector: { 'state.yaook.cloud/forced-downscale': 'true' },
        }),
      ),
    );

    // WHEN
    const findings = preflight(graph, freshCluster());

    // THEN
    expect(findings).toHaveLength(1);
    expect(findings[0].severity).toBe('info');
    expect(findings[0].message).toMatch(/reserved label that downscales to zero/);
  });

  test('no findings when every workload has a node', () => {
    // GIVEN
    const graph = testGraph(
      component('nova-compute', {}, withPodSpec(daemonSet('nova-compute'), yaookScheduling([HYPERVISOR]))),
    );

    // THEN
    expect(preflight(graph, [node('compute-1', { [HYPERVISOR]: 'true' })])).toEqual([]);
  });
});
