import { FORCED_DOWNSCALE_LABEL, KubeObject } from '../../graph';
import {
  asArray,
  asNumber,
  asRecord,
  asString,
  condition,
  describeCondition,
} from '../readiness/object-fields';
import { podSpecOf } from './placement';
import { explainUnplaceable } from './placement-explanation';
import { diagnosePod } from './pod-diagnosis';

/** Cluster state a diagnosis reads: the workload's pods and the nodes. */
export interface DiagnosisInput {
  readonly pods: readonly KubeObject[];
  readonly nodes: readonly KubeObject[];
}

/**
 * A label selector string (`a=b,c in (d,e),!f`) for the pods of a workload, from its
 * `spec.selector`, or undefined when it has none (then the workload's pods cannot be listed).
 */
export function podSelectorOf(workload: KubeObject): string | undefined {
  const selector = asRecord(asRecord(workload.spec).selector);
  const parts: string[] = Object.entries(asRecord(selector.matchLabels)).map(([k, v]) => `${k}=${String(v)}`);
  for (const raw of asArray(selector.matchExpressions)) {
    const e = asRecord(raw);
    const key = asString(e.key) ?? '';
    const values = asArray(e.values).map(String).join(',');
    switch (asString(e.operator)) {
      case 'In':
        parts.push(`${key} in (${values})`);
        break;
      case 'NotIn':
        parts.push(`${key} notin (${values})`);
        break;
      case 'Exists':
        parts.push(key);
        break;
      case 'DoesNotExist':
        parts.push(`!${key}`);
        break;
      default:
        break;
    }
  }
  if (parts.length === 0) {
    // Jobs get a controller-uid selector from the API server; before that, their template labels.
    const templateLabels = asRecord(asRecord(asRecord(workload.spec).template).metadata).labels;
    const fromTemplate = Object.entries(asRecord(templateLabels)).map(([k, v]) => `${k}=${String(v)}`);
    return fromTemplate.length > 0 ? fromTemplate.join(',') : undefined;
  }
  return parts.join(',');
}

/** Why a Job failed: its reason and message, its failed pod count, and what its pods say. */
export function diagnoseJob(job: KubeObject, input: DiagnosisInput): string[] {
  const s = asRecord(job.status);
  const failedPods = asNumber(s.failed) ?? 0;
  const messages: string[] = [];
  const failedCondition = condition(job, 'Failed');
  if (failedCondition?.status === 'True') {
    const limit = asNumber(asRecord(job.spec).backoffLimit);
    messages.push(
      `Job ${job.metadata.name} failed: ${describeCondition(failedCondition) || 'no reason given'}; ${failedPods} failed pod(s)${limit !== undefined ? ` (backoffLimit ${limit})` : ''}`,
    );
  }
  messages.push(...podMessages(input));
  return messages;
}

/** Why a DaemonSet runs no pods (forced downscale, or no node matches), or what its pods say. */
export function diagnoseDaemonSet(daemonSet: KubeObject, input: DiagnosisInput): string[] {
  const desired = asNumber(asRecord(daemonSet.status).desiredNumberScheduled);
  const podSpec = podSpecOf(daemonSet);
  const nodeSelector = asRecord(asRecord(podSpec).nodeSelector);
  if (FORCED_DOWNSCALE_LABEL in nodeSelector) {
    return [
      `DaemonSet ${daemonSet.metadata.name} is downscaled to zero: its nodeSelector uses ${FORCED_DOWNSCALE_LABEL}, which must never be on a node; remove it from the pod template to run the pods again`,
    ];
  }
  if (desired === 0) {
    const why = explainUnplaceable(podSpec, input.nodes);
    return why.length > 0
      ? why.map((w) => `DaemonSet ${daemonSet.metadata.name} runs on no node: ${w}`)
      : [`DaemonSet ${daemonSet.metadata.name} runs on no node (0 desired)`];
  }
  return podMessages(input);
}

/**
 * The diagnosis of one workload object from its pods (already selected by `podSelectorOf`) and the
 * nodes. Empty when nothing is wrong that the pods can tell.
 */
export function diagnoseWorkload(workload: KubeObject, input: DiagnosisInput): string[] {
  switch (workload.kind) {
    case 'Job':
      return diagnoseJob(workload, input);
    case 'DaemonSet':
      return diagnoseDaemonSet(workload, input);
    case 'Deployment': {
      const progressing = condition(workload, 'Progressing');
      const head =
        progressing?.reason === 'ProgressDeadlineExceeded'
          ? [
              `Deployment ${workload.metadata.name}: progress deadline exceeded: ${progressing.message ?? ''}`.trim(),
            ]
          : [];
      return [...head, ...podMessages(input)];
    }
    default:
      return podMessages(input);
  }
}

/** Pod messages, de-duplicated: ten replicas stuck for the same reason say it once, with a count. */
function podMessages(input: DiagnosisInput): string[] {
  const byText = new Map<string, { example: string; count: number }>();
  for (const pod of [...input.pods].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))) {
    for (const message of diagnosePod(pod, input.nodes)) {
      const key = message.split(pod.metadata.name).join('<pod>');
      const entry = byText.get(key);
      if (entry) entry.count += 1;
      else byText.set(key, { example: message, count: 1 });
    }
  }
  return [...byText.values()].map(({ example, count }) =>
    count > 1 ? `${example} (and ${count - 1} more pod(s) alike)` : example,
  );
}
