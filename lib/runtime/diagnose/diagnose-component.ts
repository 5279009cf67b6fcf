import { GraphComponent, KubeObject, kindFacts, objectRef } from '../../graph';
import { ClusterPort } from '../ports';
import { asNumber, asRecord, condition } from '../readiness/object-fields';
import { diagnosePod } from './pod-diagnosis';
import { diagnoseWorkload, podSelectorOf } from './workload-diagnosis';

/**
 * The I/O half of a diagnosis: lists the pods behind a component's workloads (by each workload's
 * selector) and, only when placement is in question, the nodes; then lets the pure functions of
 * `diagnose/` explain. Called only for slow or failed components, never on the watch path.
 *
 * @param liveOf the newest live object the run has seen for a manifest (falls back to the manifest)
 */
export async function diagnoseComponent(
  component: GraphComponent,
  cluster: ClusterPort,
  liveOf: (object: KubeObject) => KubeObject | undefined,
): Promise<string[]> {
  const messages: string[] = [];
  let nodes: KubeObject[] | undefined;
  const loadNodes = async () => {
    nodes ??= await cluster.list({ apiVersion: 'v1', kind: 'Node' });
    return nodes;
  };

  for (const manifest of component.objects) {
    const podsFound = kindFacts(manifest).pods;
    if (podsFound !== 'selector' && podsFound !== 'itself') continue;
    const live = liveOf(manifest) ?? manifest;
    try {
      if (podsFound === 'itself') {
        const needsNodes = condition(live, 'PodScheduled')?.status === 'False';
        messages.push(...diagnosePod(live, needsNodes ? await loadNodes() : []));
        continue;
      }
      const selector = podSelectorOf(live);
      const pods = selector
        ? await cluster.list(
            { apiVersion: 'v1', kind: 'Pod', namespace: manifest.metadata.namespace },
            selector,
          )
        : [];
      const unschedulable = pods.some((p) => condition(p, 'PodScheduled')?.status === 'False');
      const emptyDaemonSet =
        manifest.kind === 'DaemonSet' && asNumber(asRecord(live.status).desiredNumberScheduled) === 0;
      const podsMissing = pods.length === 0 && manifest.kind !== 'Job';
      const needsNodes = unschedulable || emptyDaemonSet || podsMissing;
      const found = diagnoseWorkload(live, { pods, nodes: needsNodes ? await loadNodes() : [] });
      if (found.length === 0 && podsMissing && manifest.kind !== 'DaemonSet') {
        messages.push(
          `${objectRef(manifest)} has no pods yet (check its ReplicaSet/controller events: quota, admission, service account)`,
        );
      }
      messages.push(...found);
    } catch (error) {
      messages.push(
        `could not diagnose ${objectRef(manifest)}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  return [...new Set(messages)];
}
