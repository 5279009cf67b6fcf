import { KubeObject, objectRef } from '../../graph';
import { asArray, asNumber, asRecord, asString, condition } from '../readiness/object-fields';
import { Finding } from './finding';
import { explainUnplaceable } from './placement-explanation';

/** Waiting reasons that mean the image cannot be pulled. */
const IMAGE_PULL = new Set(['ImagePullBackOff', 'ErrImagePull', 'InvalidImageName', 'ErrImageNeverPull']);

/**
 * What is wrong with one pod, in sentences a person can act on; empty when nothing is (it is
 * running and ready, or completed). `nodes` lets an unschedulable pod be explained label by label.
 */
export function diagnosePod(pod: KubeObject, nodes: readonly KubeObject[] = []): string[] {
  return podDiagnosis(pod, nodes).messages;
}

/**
 * The stuck states a pod's status shows, typed: an image that cannot be pulled and a container in
 * a crash loop (blocking: confirmed over two diagnosis rounds, they fail the component before its
 * timeout), no node for it (not blocking).
 */
export function podFindings(pod: KubeObject): Finding[] {
  return podDiagnosis(pod, []).findings;
}

function podDiagnosis(
  pod: KubeObject,
  nodes: readonly KubeObject[],
): { messages: string[]; findings: Finding[] } {
  const messages: string[] = [];
  const findings: Finding[] = [];
  const found = (cause: Finding['cause'], message: string) => {
    messages.push(message);
    findings.push({ cause, ref: objectRef(pod), message, blocking: true });
  };
  const name = pod.metadata.name;
  const s = asRecord(pod.status);
  const phase = asString(s.phase);
  if (phase === 'Succeeded') return { messages, findings };

  const scheduled = condition(pod, 'PodScheduled');
  if (scheduled?.status === 'False') {
    const schedulerSays = scheduled.message ? ` (scheduler: ${scheduled.message})` : '';
    const placement = nodes.length > 0 ? explainUnplaceable(pod.spec, nodes) : [];
    const said =
      placement.length > 0
        ? placement.map((p) => `pod ${name} is unschedulable: ${p}`)
        : [`pod ${name} is unschedulable${schedulerSays || ': no reason given'}`];
    messages.push(...said);
    // Not blocking: a node may join, be labelled or free up.
    findings.push({ cause: 'unschedulable', ref: objectRef(pod), message: said[0], blocking: false });
    return { messages, findings };
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
      found(
        'image-pull',
        `pod ${name}: container ${container} cannot pull image ${image ?? '?'} (${reason})${detail ? `: ${detail}` : ''}; check the image name and tag, the registry's reachability and the pull secret`,
      );
    } else if (reason === 'CrashLoopBackOff') {
      const last = asRecord(asRecord(cs.lastState).terminated);
      const exit = asNumber(last.exitCode);
      const lastReason = asString(last.reason);
      const lastMessage = asString(last.message);
      const exitPart =
        exit !== undefined ? `; last exit code ${exit}${lastReason ? ` (${lastReason})` : ''}` : '';
      found(
        'crash-loop',
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

  return { messages, findings };
}

function imageOf(pod: KubeObject, container: string): string | undefined {
  const sp = asRecord(pod.spec);
  for (const raw of [...asArray(sp.initContainers), ...asArray(sp.containers)]) {
    const c = asRecord(raw);
    if (asString(c.name) === container) return asString(c.image);
  }
  return undefined;
}
