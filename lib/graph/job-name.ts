import { createHash } from 'crypto';

/** Longest Job name: Kubernetes copies it into the pods' `job-name` label, whose values stop at 63. */
const MAX_JOB_NAME = 63;

/**
 * The name of a component's Job: `<component>-<release>-<hash>`, e.g.
 * `keystone-db-sync-2025-1-3f2a9c01`, the release with its dot as a dash and the first 8 hex digits
 * of the sha256 of the Job's spec (the pod template: image, command, environment, volumes).
 *
 * A Job's pod template is immutable, so a Job that kept one name across releases could not be
 * re-applied with a new image while the old one lives (its TTL is a day): the apply is refused.
 * A name per content makes a changed Job a new object, which runs, and leaves the old one to
 * `deploy --prune` or its TTL; an unchanged Job keeps its name, so a second deploy writes nothing.
 * The component's name (graph node, edges, CLI output) does not change.
 */
export function jobName(component: string, release: string, spec: unknown): string {
  const hash = createHash('sha256').update(JSON.stringify(spec)).digest('hex').slice(0, 8);
  const suffix = `-${release.replace(/\./g, '-')}-${hash}`;
  const base = component.slice(0, MAX_JOB_NAME - suffix.length).replace(/-+$/, '');
  return `${base}${suffix}`;
}
