import { RolloutScheduler } from '../../../lib/runtime/engine/scheduler';
import { component, configMap, graphOf } from '../support/manifests';

/** a <- b <- d, a <- c, e independent; f needs a only at run time. */
function graph() {
  return graphOf(
    component('a', {}, configMap('a')),
    component('b', { needs: { a: 'ready' } }, configMap('b')),
    component('c', { needs: { a: 'completed' } }, configMap('c')),
    component('d', { needs: { b: 'same-node' } }, configMap('d')),
    component('e', {}, configMap('e')),
    component('f', { needs: { a: 'runtime' } }, configMap('f')),
  );
}

describe('RolloutScheduler', () => {
  test('everything without gating edges is runnable at first; runtime edges do not gate', () => {
    // GIVEN
    const s = new RolloutScheduler(graph());

    // WHEN
    const runnable = s.nextRunnable();

    // THEN
    expect(runnable).toEqual(['a', 'e', 'f']);
    expect(s.snapshot().every((c) => c.state === 'pending')).toBe(true);
  });

  test('a component becomes runnable when its own dependencies verify, not its level', () => {
    // GIVEN
    const s = new RolloutScheduler(graph());
    for (const n of s.nextRunnable()) s.markApplying(n);

    // WHEN: a verifies while e (same level) is still running
    s.markVerifying('a');
    s.markVerified('a');

    // THEN
    expect(s.state('e')).toBe('applying');
    expect(s.nextRunnable()).toEqual(['b', 'c']);
    expect(s.waitingFor('d').map((e) => e.to)).toEqual(['b']);
  });

  test('respects the concurrency limit', () => {
    // GIVEN
    const s = new RolloutScheduler(graph(), { concurrency: 2 });

    // WHEN
    const first = s.nextRunnable();
    for (const n of first) s.markApplying(n);

    // THEN
    expect(first).toEqual(['a', 'e']);
    expect(s.nextRunnable()).toEqual([]);
    expect(() => s.markApplying('f')).toThrow('2 components already running');
    s.markVerified('e');
    expect(s.nextRunnable()).toEqual(['f']);
  });

  test('a failure blocks all transitive dependants, naming the failed component and its failure', () => {
    // GIVEN
    const s = new RolloutScheduler(graph());
    for (const n of s.nextRunnable()) s.markApplying(n);

    // WHEN
    const blocked = s.markFailed('a', 'Job/openstack/a: Job failed: BackoffLimitExceeded');

    // THEN
    expect(blocked).toEqual([
      {
        name: 'b',
        blockedBy: 'a',
        reason: 'blocked by a, which failed: Job/openstack/a: Job failed: BackoffLimitExceeded',
      },
      {
        name: 'c',
        blockedBy: 'a',
        reason: 'blocked by a, which failed: Job/openstack/a: Job failed: BackoffLimitExceeded',
      },
      {
        name: 'd',
        blockedBy: 'a',
        reason: 'blocked by a (through b), which failed: Job/openstack/a: Job failed: BackoffLimitExceeded',
      },
    ]);
    // Independent and runtime-only dependants continue.
    expect(s.state('e')).toBe('applying');
    expect(s.state('f')).toBe('applying');
    s.markVerified('e');
    s.markVerified('f');
    expect(s.isFinished()).toBe(true);
    expect(s.snapshot().map((c) => c.state)).toEqual([
      'failed',
      'blocked',
      'blocked',
      'blocked',
      'verified',
      'verified',
    ]);
  });

  test('skipped components satisfy their dependants', () => {
    // GIVEN
    const s = new RolloutScheduler(graph(), { skip: ['a'] });

    // WHEN
    const runnable = s.nextRunnable();

    // THEN
    expect(runnable).toEqual(['b', 'c', 'e', 'f']);
    expect(s.state('a')).toBe('skipped');
  });

  test('ending early marks what is pending as not started and leaves running ones to the caller', () => {
    // GIVEN
    const s = new RolloutScheduler(graph());
    s.markApplying('a');

    // WHEN
    const notStarted = s.markRemainingNotStarted('rollout aborted');

    // THEN
    expect(notStarted).toEqual(['b', 'c', 'd', 'e', 'f']);
    expect(s.state('a')).toBe('applying');
    expect(s.isFinished()).toBe(false);
    expect(s.snapshot()[1]).toEqual({ name: 'b', state: 'not-started', reason: 'rollout aborted' });
  });

  test('rejects transitions that would break the ordering', () => {
    // GIVEN
    const s = new RolloutScheduler(graph());

    // THEN
    expect(() => s.markApplying('b')).toThrow('cannot start b: waiting for a');
    expect(() => s.markVerified('a')).toThrow('cannot mark a verified: it is pending');
    expect(() => s.markVerifying('a')).toThrow('cannot verify a: it is pending');
    expect(() => s.state('nope')).toThrow('unknown component nope');
    expect(() => new RolloutScheduler(graph(), { concurrency: 0 })).toThrow(
      'concurrency must be a whole number >= 1',
    );
    expect(() => new RolloutScheduler(graph(), { skip: ['nope'] })).toThrow('cannot skip nope');
  });

  test('refuses a graph with a gating cycle', () => {
    // GIVEN
    // (graphFromManifests refuses it too; a hand-built graph must not get past the scheduler either)
    const base = graphOf(component('a', {}, configMap('a')), component('b', {}, configMap('b')));
    const edges = [
      { from: 'a', to: 'b', kind: 'ready' as const },
      { from: 'b', to: 'a', kind: 'ready' as const },
    ];
    const cyclic = { ...base, edges };

    // THEN
    expect(() => new RolloutScheduler(cyclic)).toThrow('dependency cycle between components: a -> b -> a');
  });
});
