import {
  COMPONENT_STATES,
  ComponentResult,
  countStates,
  DELETION_STATES,
  DeletionResult,
  failureCauses,
  RolloutResult,
  unitResults,
} from '../../lib/runtime/result';

const component = (name: string, state: ComponentResult['state'], cause?: ComponentResult['cause']) =>
  ({
    name,
    service: name,
    constructPath: `cloud/${name}`,
    state,
    cause,
    durations: {},
    objects: [],
  }) as ComponentResult;

const rollout = (
  bootstrapCause: RolloutResult['bootstrap']['cause'],
  ...components: ComponentResult[]
): RolloutResult => ({
  mode: 'deploy',
  outcome: 'failed',
  ok: false,
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:01.000Z',
  durationMs: 1000,
  bootstrap: { state: bootstrapCause ? 'failed' : 'verified', cause: bootstrapCause, objects: [] },
  components,
  counts: countStates(components, COMPONENT_STATES),
});

const deletion = (...units: DeletionResult['units']): DeletionResult => ({
  mode: 'prune',
  outcome: 'failed',
  ok: false,
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:01.000Z',
  durationMs: 1000,
  units,
  counts: countStates(units, DELETION_STATES),
});

describe('one result vocabulary for every run', () => {
  test('a rollout is read through its components, a deletion through its units', () => {
    // GIVEN
    const deploy = rollout(undefined, component('a', 'verified'), component('b', 'failed', 'timeout'));
    const prune = deletion(
      { name: 'x', state: 'deleted', objects: [] },
      { name: 'y', state: 'failed', objects: [] },
    );

    // THEN
    expect(unitResults(deploy).map((u) => [u.name, u.state])).toEqual([
      ['a', 'verified'],
      ['b', 'failed'],
    ]);
    expect(unitResults(prune).map((u) => [u.name, u.state])).toEqual([
      ['x', 'deleted'],
      ['y', 'failed'],
    ]);
  });

  test('failure causes come bootstrap first, then in unit order, repeats kept and goals reached left out', () => {
    // GIVEN
    const deploy = rollout(
      'apply-rejected',
      component('a', 'failed', 'timeout'),
      component('b', 'verified'),
      component('c', 'blocked', 'blocked'),
      component('d', 'failed', 'timeout'),
    );
    const prune = deletion(
      { name: 'x', state: 'failed', cause: 'cluster-unreachable', objects: [] },
      { name: 'y', state: 'deleted', objects: [] },
    );

    // THEN
    expect(failureCauses(deploy)).toEqual(['apply-rejected', 'timeout', 'blocked', 'timeout']);
    expect(failureCauses(prune)).toEqual(['cluster-unreachable']);
  });

  test('counts have every state of the run, zeros included', () => {
    expect(
      countStates([{ state: 'deleted' }, { state: 'deleted' }, { state: 'blocked' }], DELETION_STATES),
    ).toEqual({
      deleted: 2,
      failed: 0,
      blocked: 1,
      'not-started': 0,
    });
    expect(Object.keys(countStates([], COMPONENT_STATES))).toEqual([...COMPONENT_STATES]);
  });
});

test('without states, countStates counts a rollout’s component states', () => {
  expect(countStates([{ state: 'verified' }, { state: 'skipped' }])).toEqual({
    ...countStates([], COMPONENT_STATES),
    verified: 1,
    skipped: 1,
  });
});
