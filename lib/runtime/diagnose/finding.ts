import { StuckCause } from '../ports';

/**
 * One thing the cluster says is wrong with a component's objects: read from an Event (a quota, a
 * webhook, Pod Security, a missing StorageClass) or from a pod's status (an image that cannot be
 * pulled, a crash loop), with its typed cause.
 */
export interface Finding {
  readonly cause: StuckCause;
  /** The object it was reported about, `Kind/namespace/name` (a ReplicaSet, a Pod, a PVC, …). */
  readonly ref: string;
  /** What is wrong, naming the quota, the StorageClass, the webhook, …, and the fix. */
  readonly message: string;
  /**
   * True when it will not go away without a change by a person (a quota, a missing StorageClass, a
   * denied admission, a crash loop): seen in two diagnosis rounds in a row, it fails the component
   * at once instead of at its timeout. False for what may heal by itself (no node fits *yet*).
   */
  readonly blocking: boolean;
}

/** Findings without repeats: one per cause and object, the first one kept. */
export function uniqueFindings(findings: readonly Finding[]): Finding[] {
  const seen = new Map<string, Finding>();
  for (const f of findings) {
    const key = findingKey(f);
    if (!seen.has(key)) seen.set(key, f);
  }
  return [...seen.values()];
}

/** What identifies a finding across diagnosis rounds: its cause and its object. */
export function findingKey(finding: Pick<Finding, 'cause' | 'ref'>): string {
  return `${finding.cause} ${finding.ref}`;
}
