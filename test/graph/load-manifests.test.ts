import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { loadManifests, MAX_DOCUMENT_BYTES, parseManifestText } from '../../lib/graph';

describe('parseManifestText', () => {
  it('reads YAML 1.2 core scalars as cdk8s wrote them (dates and yes/no stay strings, 0755 is a decimal int)', () => {
    // GIVEN two documents, an empty one between them, and scalars other schemas would convert
    const text = [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata: {name: a}',
      'data: {date: 2026-11-23, flag: yes, octal: 0755, quoted: "42"}',
      '---',
      '---',
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata: {name: b}',
      'data: {count: 3}',
    ].join('\n');

    // WHEN
    const objects = parseManifestText(text, 'dist/x.k8s.yaml');

    // THEN
    expect(objects.map((o) => o.metadata.name)).toEqual(['a', 'b']);
    expect(objects[0]).toMatchObject({ data: { date: '2026-11-23', flag: 'yes', octal: 755, quoted: '42' } });
    expect(objects[1]).toMatchObject({ data: { count: 3 } });
  });

  it('names the file and the line of a syntax error', () => {
    // GIVEN / WHEN / THEN
    expect(() => parseManifestText('apiVersion: v1\nkind: [unclosed\n', 'dist/bad.k8s.yaml')).toThrow(
      /^dist\/bad\.k8s\.yaml: .*\(3:1\)/s,
    );
  });

  it('names the document that is not a Kubernetes object', () => {
    // GIVEN a second document without metadata.name
    const text =
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ConfigMap\n';

    // WHEN / THEN
    expect(() => parseManifestText(text, 'm.yaml')).toThrow(
      'm.yaml: document 2 is not a Kubernetes object (apiVersion, kind, metadata.name)',
    );
  });
});

describe('loadManifests', () => {
  it('reads the YAML files of a directory in name order and tells how to create them when there are none', () => {
    // GIVEN
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-load-'));
    fs.writeFileSync(
      path.join(dir, '0001-b.k8s.yaml'),
      'apiVersion: v1\nkind: Namespace\nmetadata: {name: b}\n',
    );
    fs.writeFileSync(
      path.join(dir, '0000-a.k8s.yml'),
      'apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n',
    );
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not yaml');
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-empty-'));

    // WHEN / THEN
    expect(loadManifests(dir).map((o) => o.metadata.name)).toEqual(['a', 'b']);
    expect(() => loadManifests(empty)).toThrow(`no *.yaml files in ${empty}; run \`npx cdk8s synth\` first`);
  });
});

describe('the loader refuses oversized documents before parsing them', () => {
  const big = (name: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  blob: ${'x'.repeat(MAX_DOCUMENT_BYTES)}\n`;

  test.each([
    ['the only document', big('a'), 'document 1 is 3.0 MiB'],
    ['after a leading separator', `---\n${big('a')}`, 'document 1 is 3.0 MiB'],
    [
      'the third document',
      `${'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n---\n'.repeat(2)}${big('c')}`,
      'document 3 is 3.0 MiB',
    ],
  ])('%s', (_title, text, expected) => {
    expect(() => parseManifestText(text, 'cloud.k8s.yaml')).toThrow(`cloud.k8s.yaml: ${expected}`);
  });

  test('many small documents adding up to more than the limit are fine', () => {
    const small =
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  blob: ' +
      'x'.repeat(1024 * 1024) +
      '\n';
    expect(parseManifestText([small, small, small, small].join('---\n'), 'cloud.k8s.yaml')).toHaveLength(4);
  });
});
