import { ComponentGraph, FORCED_DOWNSCALE_LABEL, KubeObject, objectRef } from '../../graph';
import { asRecord } from '../readiness/object-fields';
import { checkPlacement, podSpecOf } from '../diagnose/placement';
import { explainUnplaceable } from '../diagnose/placement-explanation';

/** One placement problem found before anything is applied. */
export interface PreflightFinding {
  readonly component: string;
  /** The workload whose pod template no node can host. */
  readonly ref: string;
  /**
   * `error`: a Deployment/StatefulSet/Job/Pod would never become ready, so the rollout would time out.
   * `warning`: a DaemonSet would run on no node; it verifies (0 desired), but probably not what you want.
   * `info`: a DaemonSet deliberately downscaled with the forced-downscale selector.
   */
  readonly severity: 'error' | 'warning' | 'info';
  /** Why, ending with the `kubectl label`/`kubectl taint` command that would fix it. */
  readonly message: string;
}

/**
 * Checks, without touching the cluster, that every workload of the graph can be placed on at least
 * one of `nodes` (labels, required node affinity, taints, cordons), so "a fresh cluster with
 * unlabelled nodes schedules nothing" is reported in seconds instead of after a timeout.
 *
 * @example
 * const nodes = await cluster.list({ apiVersion: 'v1', kind: 'Node' });
 * for (const f of preflight(graph, nodes)) console.log(`${f.severity} ${f.component}: ${f.message}`);
 */
export function preflight(graph: ComponentGraph, nodes: readonly KubeObject[]): PreflightFinding[] {
  const findings: PreflightFinding[] = [];
  for (const component of graph.components) {
    for (const object of component.objects) {
      const podSpec = podSpecOf(object);
      if (!podSpec) continue;
      if (object.kind === 'CronJob') continue; // runs later, on its schedule; not part of the rollout
      if (checkPlacement(podSpec, nodes).fits.length > 0) continue;
      const isDaemonSet = object.kind === 'DaemonSet';
      const downscaled = FORCED_DOWNSCALE_LABEL in asRecord(podSpec.nodeSelector);
      const severity = isDaemonSet ? (downscaled ? 'info' : 'warning') : 'error';
      for (const message of explainUnplaceable(podSpec, nodes)) {
        findings.push({ component: component.name, ref: objectRef(object), severity, message });
      }
    }
  }
  return findings;
}
