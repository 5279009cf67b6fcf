import { App } from 'cdk8s';
import { KubeObject } from '../../lib/graph';
import { podSpecOf, synthObjects } from '../../lib/testing';
import { referenceCloud } from '../../stacks/reference-cloud';

const objects = synthObjects(referenceCloud(new App()));
const WORKLOADS = ['Deployment', 'StatefulSet', 'DaemonSet'];
const workloads = objects.filter((o) => WORKLOADS.includes(o.kind));
const jobs = objects.filter((o) => o.kind === 'Job');
const specOf = (o: KubeObject) => o.spec as Record<string, unknown>;
const podLabelsOf = (o: KubeObject) =>
  (specOf(o).template as { metadata: { labels: Record<string, string> } }).metadata.labels;

/** The clusters that lose their majority when two members go down together. */
const QUORUM_CLUSTERS = ['db', 'mq', 'ovsdb-nb', 'ovsdb-sb'];

describe('the reference cloud survives the loss of one node', () => {
  test('quorum clusters never put two members on one node while there are nodes enough', () => {
    for (const name of QUORUM_CLUSTERS) {
      const statefulSet = workloads.find((o) => o.kind === 'StatefulSet' && o.metadata.name === name);
      expect(statefulSet).toBeDefined();
      const pod = podSpecOf(statefulSet as KubeObject);
      expect({ name, constraints: pod.topologySpreadConstraints }).toEqual({
        name,
        constraints: [
          {
            maxSkew: 1,
            topologyKey: 'kubernetes.io/hostname',
            whenUnsatisfiable: 'DoNotSchedule',
            labelSelector: { matchLabels: podLabelsOf(statefulSet as KubeObject) },
          },
        ],
      });
    }
  });

  test('every workload of two or more replicas has a PodDisruptionBudget of one, selecting exactly its pods', () => {
    // GIVEN
    const budgets = objects.filter((o) => o.kind === 'PodDisruptionBudget');
    const replicated = workloads.filter((o) => ((specOf(o).replicas as number | undefined) ?? 1) > 1);
    expect(replicated.length).toBeGreaterThan(20);
    // WHEN each one's budget is looked up by selector
    const uncovered = replicated
      .filter((w) => {
        const budget = budgets.find(
          (b) =>
            JSON.stringify((specOf(b).selector as object) ?? {}) ===
            JSON.stringify({ matchLabels: podLabelsOf(w) }),
        );
        return specOf(budget ?? w).maxUnavailable !== 1;
      })
      .map((w) => `${w.kind}/${w.metadata.name}`);
    // THEN none is left without, and no budget blocks drains of a single replica
    expect(uncovered).toEqual([]);
    expect(budgets.length).toBe(replicated.length);
  });

  test('agents in the host namespaces outrank the control plane; one-shot Jobs pre-empt nothing', () => {
    // (ceilometer-compute only reads statistics: losing it stops no instance)
    // GIVEN
    const classes = objects.filter((o) => o.kind === 'PriorityClass');
    const valueOf = (name: string) =>
      (classes.find((c) => c.metadata.name === name) as unknown as { value: number } | undefined)?.value;
    // THEN
    expect(valueOf('openstack-node-agent')).toBeGreaterThan(valueOf('openstack-control-plane') ?? Infinity);
    for (const workload of workloads) {
      const pod = podSpecOf(workload);
      const expected = pod.hostNetwork === true ? 'openstack-node-agent' : 'openstack-control-plane';
      expect({ name: workload.metadata.name, priority: pod.priorityClassName }).toEqual({
        name: workload.metadata.name,
        priority: expected,
      });
    }
    expect(
      workloads
        .filter((w) => podSpecOf(w).priorityClassName === 'openstack-node-agent')
        .map((w) => w.metadata.name)
        .sort(),
    ).toEqual([
      'neutron-bgp-agent',
      'neutron-dhcp-agent',
      'neutron-l3-agent',
      'neutron-ovn-agent',
      'neutron-ovn-metadata-agent',
      'nova-compute',
      'nova-libvirt',
    ]);
    expect(jobs.filter((j) => podSpecOf(j).priorityClassName !== undefined)).toEqual([]);
  });

  test('every Job has a deadline and is cleaned up after it finished', () => {
    const unbounded = jobs
      .filter(
        (j) =>
          !(Number(specOf(j).activeDeadlineSeconds) > 0) || specOf(j).ttlSecondsAfterFinished === undefined,
      )
      .map((j) => j.metadata.name);
    expect(jobs.length).toBeGreaterThan(80);
    expect(unbounded).toEqual([]);
  });
});
