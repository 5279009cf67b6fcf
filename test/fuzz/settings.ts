import fc from 'fast-check';

/**
 * The fuzz run's settings: a fixed seed and a fixed number of runs per property, so CI repeats the
 * same inputs; `STACKWRIGHT_FUZZ_SEED` and `STACKWRIGHT_FUZZ_RUNS` choose others for a longer local
 * run (docs/validation.md). A failure prints the seed and the path to replay it.
 */
export function fuzzParameters<T>(defaultRuns: number): fc.Parameters<T> {
  const seed = Number(process.env.STACKWRIGHT_FUZZ_SEED ?? 20251128);
  const numRuns = Number(process.env.STACKWRIGHT_FUZZ_RUNS ?? defaultRuns);
  if (!Number.isInteger(seed) || !Number.isInteger(numRuns) || numRuns < 1)
    throw new Error(
      'STACKWRIGHT_FUZZ_SEED and STACKWRIGHT_FUZZ_RUNS must be whole numbers (runs at least 1)',
    );
  return { seed, numRuns, endOnFailure: process.env.STACKWRIGHT_FUZZ_SHRINK === undefined };
}

/** How long one input may take before it counts as a hang. */
export const CASE_BOUND_MS = 20_000;

/** Inputs tried and time spent per property, printed at the end for docs/validation.md. */
export class FuzzTally {
  private readonly started = Date.now();
  readonly outcomes = new Map<string, number>();

  count(outcome: string): void {
    this.outcomes.set(outcome, (this.outcomes.get(outcome) ?? 0) + 1);
  }

  report(title: string): string {
    const seconds = (Date.now() - this.started) / 1000;
    const total = [...this.outcomes.values()].reduce((a, b) => a + b, 0);
    const by = [...this.outcomes.entries()]
      .sort()
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    return `${title}: ${total} inputs in ${seconds.toFixed(1)} s (${(total / seconds).toFixed(1)}/s): ${by}`;
  }
}
