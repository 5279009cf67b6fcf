import { UnitScheduler } from '../../../lib/runtime/engine/scheduler';
import { unitGraphOf } from '../../../lib/runtime/engine/unit-graph';
import { component, configMap, testGraph } from '../support/manifests';

/** a <- b <- d, a <- c, e independent; f needs a only at run time. */
function graph() {
  return testGraph(
    component('a', {}, configMap('a')),
    component('b', { needs: { a: 'ready' } }, configMap('b')),
    component('c', { needs: { a: 'completed' } }, configMap('c')),
    component('d', { needs: { b: 'same-node' } }, configMap('d')),
    component('e', {}, configMap('e')),
    component('f', { needs: { a: 'runtime' } }, configMap('f')),
  );
}

/** A spine s0 <- s1 <- … <- s9 with `leaves` leaves (leaf0, …) that need s0 only. */
function comb(leaves: number) {
  return testGraph(
    ...Array.from({ length: 10 }, (_, i) =>
      component(`s${i}`, { needs: i === 0 ? {} : { [`s${i - 1}`]: 'ready' } }, configMap(`s${i}`)),
    ),
    ...Array.from({ length: leaves }, (_, i) =>
      component(`leaf${i}`, { needs: { s0: 'ready' } }, configMap(`leaf${i}`)),
    ),
  );
}

/** c0 <- c1 <- … <- c{n-1}. */
function chain(n: number) {
  return testGraph(
    ...Array.from({ length: n }, (_, i) =>
      component(`c${i}`, { needs: i === 0 ? {} : { [`c${i - 1}`]: 'ready' } }, configMap(`c${i}`)),
    ),
  );
}

/** root <- leaf0 … leaf{n-2}. */
function fanOut(n: number) {
  return testGraph(
    component('root', {}, configMap('root')),
    ...Array.from({ length: n - 1 }, (_, i) =>
      component(`leaf${i}`, { needs: { root: 'ready' } }, configMap(`leaf${i}`)),
    ),
  );
}

/**
 * Runs the scheduler in rounds where every started component verifies by the end of its round
 * (every component takes as long as every other): returns what started in each round.
 */
function rounds(s: UnitScheduler): string[][] {
  const started: string[][] = [];
  while (!s.isFinished()) {
    const round = s.nextRunnable();
    for (const n of round) s.markStarted(n);
    for (const n of round) s.markDone(n);
    started.push(round);
  }
  return started;
}

describe('UnitScheduler', () => {
  test('everything without gating edges is runnable at first; runtime edges do not gate', () => {
    // GIVEN
    const s = new UnitScheduler(unitGraphOf(graph()));

    // WHEN
    const runnable = s.nextRunnable();

    // THEN
    expect(runnable).toEqual(['a', 'e', 'f']);
    expect(s.snapshot().every((c) => c.state === 'pending')).toBe(true);
  });

  test('a component becomes runnable when its own dependencies verify, not its level', () => {
    // GIVEN
    const s = new UnitScheduler(unitGraphOf(graph()));
    for (const n of s.nextRunnable()) s.markStarted(n);

    // WHEN: a verifies while e (same level) is still running
    s.markDone('a');

    // THEN
    expect(s.state('e')).toBe('running');
    expect(s.nextRunnable()).toEqual(['b', 'c']);
    expect(s.waitingFor('d')).toEqual(['b']);
  });

  test('respects the concurrency limit', () => {
    // GIVEN
    const s = new UnitScheduler(unitGraphOf(graph()), { concurrency: 2 });

    // WHEN
    const first = s.nextRunnable();
    for (const n of first) s.markStarted(n);

    // THEN
    expect(first).toEqual(['a', 'e']);
    expect(s.nextRunnable()).toEqual([]);
    expect(() => s.markStarted('f')).toThrow('2 units already running');
    s.markDone('e');
    expect(s.nextRunnable()).toEqual(['f']);
  });

  test('a failure blocks all transitive dependants, naming the failed component and its failure', () => {
    // GIVEN
    const s = new UnitScheduler(unitGraphOf(graph()));
    for (const n of s.nextRunnable()) s.markStarted(n);

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
    expect(s.state('e')).toBe('running');
    expect(s.state('f')).toBe('running');
    s.markDone('e');
    s.markDone('f');
    expect(s.isFinished()).toBe(true);
    expect(s.snapshot().map((c) => c.state)).toEqual([
      'failed',
      'blocked',
      'blocked',
      'blocked',
      'done',
      'done',
    ]);
  });

  test('skipped components satisfy their dependants', () => {
    // GIVEN
    const s = new UnitScheduler(unitGraphOf(graph()), { skip: ['a'] });

    // WHEN
    const runnable = s.nextRunnable();

    // THEN
    expect(runnable).toEqual(['b', 'c', 'e', 'f']);
    expect(s.state('a')).toBe('skipped');
  });

  test('ending early marks what is pending as not started and leaves running ones to the caller', () => {
    // GIVEN
    const s = new UnitScheduler(unitGraphOf(graph()));
    s.markStarted('a');

    // WHEN
    const notStarted = s.markRemainingNotStarted('rollout aborted');

    // THEN
    expect(notStarted).toEqual(['b', 'c', 'd', 'e', 'f']);
    expect(s.state('a')).toBe('running');
    expect(s.isFinished()).toBe(false);
    expect(s.snapshot()[1]).toEqual({ name: 'b', state: 'not-started', reason: 'rollout aborted' });
  });

  test('rejects transitions that would break the ordering', () => {
    // GIVEN
    const s = new UnitScheduler(unitGraphOf(graph()));

    // THEN
    expect(() => s.markStarted('b')).toThrow('cannot start b: waiting for a');
    expect(() => s.markDone('a')).toThrow('cannot mark a done: it is pending');
    expect(() => s.state('nope')).toThrow('unknown unit nope');
    expect(() => new UnitScheduler(unitGraphOf(graph()), { concurrency: 0 })).toThrow(
      'concurrency must be a whole number >= 1',
    );
    expect(() => new UnitScheduler(unitGraphOf(graph()), { skip: ['nope'] })).toThrow('cannot skip nope');
  });

  test('refuses a graph with a gating cycle', () => {
    // GIVEN
    // (graphFromManifests refuses it too; a hand-built graph must not get past the scheduler either)
    const base = testGraph(component('a', {}, configMap('a')), component('b', {}, configMap('b')));
    const edges = [
      { from: 'a', to: 'b', kind: 'ready' as const },
      { from: 'b', to: 'a', kind: 'ready' as const },
    ];
    const cyclic = { ...base, edges };

    // THEN
    expect(() => unitGraphOf(cyclic)).toThrow('dependency cycle between components: a -> b -> a');
    expect(
      () =>
        new UnitScheduler({
          units: ['a', 'b'],
          needs: [
            { from: 'a', to: 'b' },
            { from: 'b', to: 'a' },
          ],
        }),
    ).toThrow('dependency cycle between units: a -> b -> a');
  });

  test('refuses a need on a unit it does not schedule, and two units of one name', () => {
    // THEN
    expect(() => new UnitScheduler({ units: ['a'], needs: [{ from: 'a', to: 'x' }] })).toThrow(
      'a needs x, but only a are scheduled',
    );
    expect(() => new UnitScheduler({ units: ['a', 'a'], needs: [] })).toThrow('two units are named a');
  });

  test('a reversed graph is scheduled as given: what is needed by nothing goes first', () => {
    // GIVEN: deletion order for a <- b <- c (c is deleted first, a last)
    const s = new UnitScheduler({
      units: ['a', 'b', 'c'],
      needs: [
        { from: 'a', to: 'b' },
        { from: 'b', to: 'c' },
      ],
    });

    // THEN
    expect(rounds(s)).toEqual([['c'], ['b'], ['a']]);
  });

  describe('critical path first', () => {
    test('on a comb, the next spine link starts before the leaves, whatever the names', () => {
      // GIVEN: a 10-link spine with 40 leaves off its first link (leaves sort before the spine)
      const s = new UnitScheduler(unitGraphOf(comb(40)), { concurrency: 41 });
      s.markStarted('s0');

      // WHEN
      s.markDone('s0');
      const runnable = s.nextRunnable();

      // THEN: s1 (9 links to go) first, then the leaves in name order
      expect(runnable).toHaveLength(41);
      expect(runnable[0]).toBe('s1');
      expect(runnable.slice(1)).toEqual(Array.from({ length: 40 }, (_, i) => `leaf${i}`).sort());
    });

    test('on a comb with fewer slots than runnable components, the spine never waits for a leaf', () => {
      // GIVEN
      const s = new UnitScheduler(unitGraphOf(comb(40)), { concurrency: 8 });

      // WHEN
      const started = rounds(s);

      // THEN: one round per spine link (the longest path), the leaves in the spare slots
      expect(started).toHaveLength(10);
      expect(started.map((round) => round[0])).toEqual(Array.from({ length: 10 }, (_, i) => `s${i}`));
      expect(started[1]).toEqual(['s1', 'leaf0', 'leaf1', 'leaf10', 'leaf11', 'leaf12', 'leaf13', 'leaf14']);
    });

    test('a skipped link weighs nothing on the path', () => {
      // GIVEN: x <- y and x <- z <- w with z skipped, beside the chain zz0 <- zz1 <- zz2
      const s = new UnitScheduler(
        unitGraphOf(
          testGraph(
            component('x', {}, configMap('x')),
            component('y', { needs: { x: 'ready' } }, configMap('y')),
            component('z', { needs: { x: 'ready' } }, configMap('z')),
            component('w', { needs: { z: 'ready' } }, configMap('w')),
            component('zz0', {}, configMap('zz0')),
            component('zz1', { needs: { zz0: 'ready' } }, configMap('zz1')),
            component('zz2', { needs: { zz1: 'ready' } }, configMap('zz2')),
          ),
        ),
        { skip: ['z'], concurrency: 1 },
      );

      // THEN: zz0 (3 to run) before x (2 to run: x, then y or w), although x sorts first
      expect(s.nextRunnable()).toEqual(['zz0']);
    });

    test('a chain keeps its order: one component per round', () => {
      // GIVEN
      const s = new UnitScheduler(unitGraphOf(chain(10)), { concurrency: 8 });

      // THEN
      expect(rounds(s)).toEqual(Array.from({ length: 10 }, (_, i) => [`c${i}`]));
    });

    test('a wide graph keeps the name order and fills every slot', () => {
      // GIVEN
      const s = new UnitScheduler(unitGraphOf(fanOut(50)), { concurrency: 8 });
      const names = Array.from({ length: 49 }, (_, i) => `leaf${i}`).sort();

      // WHEN
      const started = rounds(s);

      // THEN: the root, then the leaves eight at a time in name order, as before
      expect(started).toEqual([
        ['root'],
        ...Array.from({ length: 7 }, (_, i) => names.slice(i * 8, i * 8 + 8)),
      ]);
    });
  });
});
