import { KubeObject } from '../../graph';
import { asArray, asNumber, asRecord, asString, condition } from '../readiness/object-fields';
import { explainUnplaceable } from './placement-explanation';

/** Waiting reasons that mean the image cannot be pulled. */
const IMAGE_PULL = new Set(['ImagePullBackOff', 'ErrImagePull', 'InvalidImageName', 'ErrImageNeverPull']);

/**
 * What is wrong with one pod, in sentences a person can act on; empty when nothing is (it is
 * running and ready, or completed). `nodes` lets an unschedulable pod be explained label by label;
 * `events` (core/v1 Events) add the kubelet's and scheduler's warnings about this pod.
 */
export function diagnosePod(
  pod: KubeObject,
  nodes: readonly KubeObject[] = [],
  events: readonly KubeObject[] = [],
): string[] {
  const name = pod.metadata.name;
  const s = asRecord(pod.status);
  const phase = asString(s.phase);
  if (phase === 'Succeeded') return [];
  const messages: string[] = [];

  const scheduled = condition(pod, 'PodScheduled');
  if (scheduled?.status === 'False') {
    const schedulerSays = scheduled.message ? ` (scheduler: ${scheduled.message})` : '';
    const placement = nodes.length > 0 ? explainUnplaceable(pod.spec, nodes) : [];
    if (placement.length > 0) {
      messages.push(...placement.map((p) => `pod ${name} is unschedulable: ${p}`));
    } else {
      messages.push(`pod ${name} is unschedulable${schedulerSays || ': no reason given'}`);
    }
    return messages;
  }

  if (phase === 'Failed') {
    const why = [asString(s.reason), asString(s.message)].filter(Boolean).join(': ');
    messages.push(`pod ${name} failed${why ? `: ${why}` : ''}`);
  }

  for (const raw of [...asArray(s.initContainerStatuses), ...asArray(s.containerStatuses)]) {
    const cs = asRecord(raw);
    const container = asString(cs.name) ?? '?';
    const state = asRecord(cs.state);
    const waiting = asRecord(state.waiting);
    const reason = asString(waiting.reason);
    const restarts = asNumber(cs.restartCount) ?? 0;
    const image = asString(cs.image) ?? imageOf(pod, container);
    if (reason && IMAGE_PULL.has(reason)) {
      const detail = asString(waiting.message);
      messages.push(
        `pod ${name}: container ${container} cannot pull image ${image ?? '?'} (${reason})${detail ? `: ${detail}` : ''}; check the image name and tag, the registry's reachability and the pull secret`,
      );
    } else if (reason === 'CrashLoopBackOff') {
      const last = asRecord(asRecord(cs.lastState).terminated);
      const exit = asNumber(last.exitCode);
      const lastReason = asString(last.reason);
      const lastMessage = asString(last.message);
      const exitPart =
        exit !== undefined ? `; last exit code ${exit}${lastReason ? ` (${lastReason})` : ''}` : '';
      messages.push(
        `pod ${name}: container ${container} is crash-looping (${restarts} restarts${exitPart})${lastMessage ? `: ${lastMessage}` : ''}; see kubectl logs -n ${pod.metadata.namespace ?? 'default'} ${name} -c ${container} --previous`,
      );
    } else if (reason === 'CreateContainerConfigError' || reason === 'CreateContainerError') {
      messages.push(
        `pod ${name}: container ${container} cannot be created (${reason}): ${asString(waiting.message) ?? 'no message'}`,
      );
    } else if (phase === 'Running' && cs.ready === false && Object.keys(asRecord(state.running)).length > 0) {
      messages.push(
        `pod ${name}: container ${container} is running but not ready (readiness probe failing?)${restarts > 0 ? `, ${restarts} restarts` : ''}`,
      );
    }
  }

  for (const event of events) {
    const e = asRecord(event);
    const involved = asRecord(e.involvedObject);
    if (
      asString(involved.kind) !== 'Pod' ||
      asString(involved.name) !== name ||
      asString(e.type) !== 'Warning'
    )
      continue;
    const line = `pod ${name}: ${asString(e.reason) ?? 'Warning'}: ${asString(e.message) ?? ''}`.trim();
    if (!messages.some((m) => m.includes(asString(e.message) ?? '\u0000'))) messages.push(line);
  }
  return messages;
}

function imageOf(pod: KubeObject, container: string): string | undefined {
  const sp = asRecord(pod.spec);
  for (const raw of [...asArray(sp.initContainers), ...asArray(sp.containers)]) {
    const c = asRecord(raw);
    if (asString(c.name) === container) return asString(c.image);
  }
  return undefined;
}
