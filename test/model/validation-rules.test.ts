import { propsProblems, PropsSpec, required, Rules } from '../../lib/model';

interface Options {
  readonly replicas?: number;
  readonly hosts?: readonly string[];
  readonly nested?: { readonly size?: string };
}

const SPEC: PropsSpec<Options> = {
  replicas: Rules.count({ min: 1, max: 9 }),
  hosts: Rules.list(Rules.nonEmptyText(), { max: 3 }),
  nested: Rules.object<{ size?: string }>({ size: Rules.quantity() }),
};

describe('propsProblems', () => {
  test('valid and absent props have no problems', () => {
    expect(propsProblems({ replicas: 3, hosts: ['a'], nested: { size: '1Gi' } }, SPEC)).toEqual([]);
    expect(propsProblems(undefined, SPEC)).toEqual([]);
  });

  test('every problem at once, nested ones with their path', () => {
    // WHEN
    const problems = propsProblems(
      { replicas: 0, hosts: ['a', ''], nested: { size: '1 GB', sise: 1 } },
      SPEC,
    );
    // THEN
    expect(problems).toEqual([
      'replicas must be between 1 and 9, got 0',
      'hosts[1] is empty; give a value',
      'nested has an unknown key "sise"; the known keys are size',
      expect.stringContaining('nested.size "1 GB" is not a Kubernetes quantity'),
    ]);
  });

  test('a list is counted before its items are read', () => {
    // GIVEN a list far over the limit, whose items would each be a problem
    const hosts = new Array<string>(1_000_000).fill('');
    // WHEN / THEN one problem, not a million
    expect(propsProblems({ hosts }, SPEC)).toEqual(['hosts has 1000000 items; give at most 3']);
  });

  test('not an object', () => {
    expect(propsProblems('replicas=3', SPEC)).toEqual(['props must be an object, got "replicas=3"']);
    expect(propsProblems([3], SPEC)).toEqual(['props must be an object, got [3]']);
    expect(propsProblems(null, SPEC, { otherKeysAllowed: true })).toEqual([
      'props must be an object, got null',
    ]);
  });

  test('a base class checks its part and leaves other keys to the subclass', () => {
    expect(propsProblems({ replicas: 2, image: 'x' }, SPEC, { otherKeysAllowed: true })).toEqual([]);
    expect(propsProblems({ replicas: 2, image: 'x' }, SPEC)).toEqual([
      'props has an unknown key "image"; the known keys are replicas, hosts, nested',
    ]);
  });

  test('required values name what to pass; null counts as missing', () => {
    const rule = required(Rules.port(), 'the port, e.g. 3306');
    expect(rule(undefined, 'port')).toEqual(['port is required; pass the port, e.g. 3306']);
    expect(rule(null, 'port')).toEqual(['port is required; pass the port, e.g. 3306']);
    expect(rule(3306, 'port')).toEqual([]);
  });
});
