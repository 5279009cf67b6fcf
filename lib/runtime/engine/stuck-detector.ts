import { Finding, findingKey } from '../diagnose/finding';

/**
 * Decides when a stuck state is certain, so a component fails with its cause instead of at its
 * timeout. Pure bookkeeping over diagnosis rounds: a blocking finding (a quota, a missing
 * StorageClass, a crash loop, …) is confirmed when the round before saw it too and no object of
 * the component changed in between — a quota that was raised meanwhile lets pods be created,
 * which changes the workload's status, and the finding starts over.
 */
export class StuckDetector {
  /** When each blocking finding was last seen, by cause and object. */
  private seen = new Map<string, number>();
  private lastChangeAt = Number.NEGATIVE_INFINITY;

  /** An object of the component changed (status or message) at `at`. */
  changed(at: number): void {
    this.lastChangeAt = Math.max(this.lastChangeAt, at);
  }

  /** Records a diagnosis round at `at`; returns the first finding it confirms, if any. */
  round(findings: readonly Finding[], at: number): Finding | undefined {
    const blocking = findings.filter((f) => f.blocking);
    const confirmed = blocking.find((f) => {
      const before = this.seen.get(findingKey(f));
      return before !== undefined && this.lastChangeAt <= before;
    });
    this.seen = new Map(blocking.map((f) => [findingKey(f), at]));
    return confirmed;
  }
}
