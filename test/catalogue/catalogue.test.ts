import { BAD_INPUT_CLASSES, BadInputClass, countByClass } from './bad-input';
import { CLI_CASES } from './cli.cases';
import { CONSTRUCT_CASES } from './constructs.cases';
import { RUNTIME_CASES } from './runtime.cases';

// The catalogue as a whole (each surface's runner checks its cases): at least 150 bad inputs,
// every class of issue 12 covered, no two cases of a surface with the same title.
describe('the catalogue of bad inputs', () => {
  const surfaces = { constructs: CONSTRUCT_CASES, cli: CLI_CASES, runtime: RUNTIME_CASES };
  const all = Object.values(surfaces).flat();

  test('counts by class and surface', () => {
    const total = countByClass(all);
    const lines = (Object.keys(BAD_INPUT_CLASSES) as unknown as BadInputClass[]).map(
      (c) =>
        `class ${c} (${BAD_INPUT_CLASSES[c]}): ${total[c]} — ` +
        Object.entries(surfaces)
          .map(([surface, cases]) => `${surface} ${countByClass(cases)[c]}`)
          .join(', '),
    );
    console.log(`bad-input catalogue: ${all.length} cases\n${lines.join('\n')}`);
    expect(all.length).toBeGreaterThanOrEqual(150);
    for (const c of Object.keys(BAD_INPUT_CLASSES) as unknown as BadInputClass[])
      expect(total[c]).toBeGreaterThanOrEqual(30);
  });

  test.each(Object.entries(surfaces))('%s: every case has its own title', (_surface, cases) => {
    const titles = cases.map((c) => c.name);
    expect(titles.filter((t, i) => titles.indexOf(t) !== i)).toEqual([]);
  });
});
