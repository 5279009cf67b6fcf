import { GraphComponent, KubeObject, kindFacts, objectRef } from '../../graph';
import { ClusterPort } from '../ports';
import { asNumber, asRecord, condition } from '../readiness/object-fields';
import { clusterEvent, ClusterEvent, involvedName } from './events/cluster-event';
import { explainEvent } from './events/event-rules';
import { Finding, findingKey, uniqueFindings } from './finding';
import { claimsOfPod, claimsOfStatefulSet, InvolvedObjects, isOwnedBy } from './involved-objects';
import { diagnosePod, podFindings } from './pod-diagnosis';
import { diagnoseWorkload, podSelectorOf } from './workload-diagnosis';

/** What the cluster says about a slow or failed component. */
export interface ComponentDiagnosis {
  /** Sentences a person can act on, without repeats. */
  readonly messages: string[];
  /** The typed causes among them (one per cause and object). */
  readonly findings: Finding[];
}

/** Events last seen this long before the component started are old news (clock skew allowed). */
const EVENT_SKEW_MS = 60_000;

/**
 * The I/O half of a diagnosis: lists the pods behind a component's workloads (by each workload's
 * selector), the ReplicaSets its Deployments own, only when placement is in question the nodes,
 * and — when the port reads them — the namespace's Events; then lets the pure functions of
 * `diagnose/` explain: the pods' status first, then each Event about one of its objects through the
 * event rules (`diagnose/events/`), then any other Warning about them as the cluster wrote it.
 * Called only for slow or failed components, never on the watch path.
 *
 * @param liveOf the newest live object the run has seen for a manifest (falls back to the manifest)
 * @param since when the component started: Events last seen well before are ignored
 */
export async function diagnoseComponent(
  component: GraphComponent,
  cluster: ClusterPort,
  liveOf: (object: KubeObject) => KubeObject | undefined,
  since?: number,
): Promise<ComponentDiagnosis> {
  const messages: string[] = [];
  const findings: Finding[] = [];
  const involved = new InvolvedObjects();
  const podless: KubeObject[] = [];
  let nodes: KubeObject[] | undefined;
  const loadNodes = async () => {
    nodes ??= await cluster.list({ apiVersion: 'v1', kind: 'Node' });
    return nodes;
  };

  for (const manifest of component.objects) {
    const live = liveOf(manifest) ?? manifest;
    const namespace = manifest.metadata.namespace;
    if (manifest.kind === 'PersistentVolumeClaim') involved.add(live);
    const podsFound = kindFacts(manifest).pods;
    if (podsFound !== 'selector' && podsFound !== 'itself') continue;
    involved.add(live);
    try {
      if (podsFound === 'itself') {
        const needsNodes = condition(live, 'PodScheduled')?.status === 'False';
        messages.push(...diagnosePod(live, needsNodes ? await loadNodes() : []));
        findings.push(...podFindings(live));
        for (const claim of claimsOfPod(live)) involved.addClaim(namespace ?? 'default', claim);
        continue;
      }
      const selector = podSelectorOf(live);
      const pods = selector ? await cluster.list({ apiVersion: 'v1', kind: 'Pod', namespace }, selector) : [];
      for (const pod of pods) {
        involved.add(pod);
        for (const claim of claimsOfPod(pod)) involved.addClaim(namespace ?? 'default', claim);
      }
      if (manifest.kind === 'StatefulSet')
        for (const claim of claimsOfStatefulSet(live)) involved.addClaim(namespace ?? 'default', claim);
      if (manifest.kind === 'Deployment' && selector)
        for (const rs of await cluster.list(
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', namespace },
          selector,
        ))
          if (isOwnedBy(rs, live)) involved.add(rs);
      const unschedulable = pods.some((p) => condition(p, 'PodScheduled')?.status === 'False');
      const emptyDaemonSet =
        manifest.kind === 'DaemonSet' && asNumber(asRecord(live.status).desiredNumberScheduled) === 0;
      const podsMissing = pods.length === 0 && manifest.kind !== 'Job';
      const needsNodes = unschedulable || emptyDaemonSet || podsMissing;
      const found = diagnoseWorkload(live, { pods, nodes: needsNodes ? await loadNodes() : [] });
      if (found.length === 0 && podsMissing && manifest.kind !== 'DaemonSet') podless.push(manifest);
      messages.push(...found);
      findings.push(...pods.flatMap(podFindings));
    } catch (error) {
      messages.push(
        `could not diagnose ${objectRef(manifest)}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  const events = await eventsAbout(cluster, involved, since, messages);
  const fromStatus = new Set(findings.map(findingKey));
  const fromEvents = uniqueFindings(events.flatMap((e) => explainEvent(e) ?? []));
  const otherWarnings = events.filter((e) => e.type === 'Warning' && explainEvent(e) === undefined);
  messages.push(...fromEvents.filter((f) => !fromStatus.has(findingKey(f))).map((f) => f.message));
  messages.push(...otherWarnings.map((e) => `${involvedName(e)}: ${e.reason}: ${e.message}`));
  if (fromEvents.length === 0 && otherWarnings.length === 0)
    for (const manifest of podless)
      messages.push(
        `${objectRef(manifest)} has no pods yet and its controller reported no error (yet); check its ReplicaSet/controller events`,
      );
  return { messages: [...new Set(messages)], findings: uniqueFindings([...findings, ...fromEvents]) };
}

/** The Events about the involved objects, newest first; a failed read is reported, not thrown. */
async function eventsAbout(
  cluster: ClusterPort,
  involved: InvolvedObjects,
  since: number | undefined,
  messages: string[],
): Promise<ClusterEvent[]> {
  if (!cluster.events) return [];
  const events: ClusterEvent[] = [];
  for (const namespace of involved.namespaces()) {
    try {
      for (const raw of await cluster.events(namespace)) {
        const event = clusterEvent(raw);
        const recent = since === undefined || (event.lastSeen ?? since) >= since - EVENT_SKEW_MS;
        if (recent && involved.concerns(event)) events.push(event);
      }
    } catch (error) {
      messages.push(
        `could not read the events of namespace ${namespace}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  return events.sort((a, b) => (b.lastSeen ?? 0) - (a.lastSeen ?? 0));
}
