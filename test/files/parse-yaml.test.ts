import { MAX_YAML_DEPTH, parseYamlDocument, parseYamlDocuments, YamlError } from '../../lib/files';
import { billionLaughs } from '../support/hostile-yaml';

function yamlError(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof YamlError) return error.message;
    throw error;
  }
  throw new Error('the YAML was accepted');
}

describe('parseYamlDocuments: the one limited YAML parse', () => {
  test('nested aliases ("billion laughs") are refused, naming the file', () => {
    // GIVEN a file of a few hundred bytes that expands to billions of values
    const text = billionLaughs();
    expect(text.length).toBeLessThan(800);

    // WHEN / THEN
    expect(yamlError(() => parseYamlDocuments(text, 'dist/lol.yaml'))).toBe(
      `dist/lol.yaml: its aliases expand it to more than ${text.length + 10_000} values (10000 more than its size allows); write the values out instead of nesting aliases`,
    );
  });

  test('aliases that repeat a few labels are fine', () => {
    const text = 'a: &labels {app: x, tier: db}\nb: *labels\nc: *labels\n';
    expect(parseYamlDocuments(text, 'x.yaml')).toEqual([
      { a: { app: 'x', tier: 'db' }, b: { app: 'x', tier: 'db' }, c: { app: 'x', tier: 'db' } },
    ]);
  });

  test('nesting past the limit is refused with the line, not a stack overflow', () => {
    const deep = `x: ${'['.repeat(5000)}${']'.repeat(5000)}\n`;
    expect(yamlError(() => parseYamlDocuments(deep, 'deep.yaml'))).toBe(
      `deep.yaml: nesting deeper than ${MAX_YAML_DEPTH} levels at line 1; no Kubernetes object or Stackwright file nests this deep: flatten it`,
    );
  });

  test('nesting stacked through aliases past the limit is refused too', () => {
    // GIVEN values each under the parser's limit, each holding the one before
    const half = Math.floor(MAX_YAML_DEPTH / 2) + 1;
    const lines = [`a0: &a0 ${'['.repeat(half)}${']'.repeat(half)}`];
    for (let i = 1; i < 4; i++) lines.push(`a${i}: &a${i} ${'['.repeat(half)}*a${i - 1}${']'.repeat(half)}`);

    // WHEN / THEN
    expect(yamlError(() => parseYamlDocuments(lines.join('\n'), 'stacked.yaml'))).toBe(
      `stacked.yaml: nesting deeper than ${MAX_YAML_DEPTH} levels through its aliases; no Kubernetes object or Stackwright file nests this deep: flatten it`,
    );
  });

  test('core schema: no timestamps, no merge keys', () => {
    expect(parseYamlDocuments('when: 2001-12-14\n<<: {a: 1}\n', 'x.yaml')).toEqual([
      { when: '2001-12-14', '<<': { a: 1 } },
    ]);
  });

  test('a single-document file: empty is undefined, two documents are refused', () => {
    expect(parseYamlDocument('', 'cdk8s.yaml')).toBeUndefined();
    expect(yamlError(() => parseYamlDocument('a: 1\n---\nb: 2\n', 'cdk8s.yaml'))).toBe(
      "cdk8s.yaml holds 2 YAML documents; it must hold one (remove the '---' lines)",
    );
  });
});
