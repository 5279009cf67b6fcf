import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ChartLike, graphOf, KubeObject, manifestsOf } from '../../lib/graph';
import { twoComponentCloud } from '../runtime/support/manifests';

describe('manifestsOf: one reader for the runtime, the Pulumi adapter and the CLI', () => {
  test('reads a chart, a list of objects and a manifests file to the same objects', () => {
    // GIVEN
    const objects = twoComponentCloud('prod');
    const chart: ChartLike = { toJson: () => objects };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manifest-source-'));
    const file = path.join(dir, 'cloud.k8s.yaml');
    fs.writeFileSync(file, objects.map((o) => JSON.stringify(o)).join('\n---\n')); // JSON is YAML

    // WHEN / THEN
    expect(manifestsOf(chart)).toEqual(objects);
    expect(manifestsOf(objects)).toEqual(objects);
    expect(manifestsOf(file).map((o) => o.metadata.name)).toEqual(objects.map((o) => o.metadata.name));
    expect(manifestsOf(dir)).toHaveLength(objects.length);
  });

  test("validates a chart's constructs first, as cdk8s synth does, every problem with its path", () => {
    // GIVEN
    let rendered = false;
    const chart: ChartLike = {
      node: {
        findAll: () => [
          { node: { path: 'broken', validate: () => [] } },
          { node: { path: 'broken/config', validate: () => ['replicas must be between 1 and 9, got 0'] } },
        ],
      },
      toJson: () => {
        rendered = true;
        return [];
      },
    };

    // WHEN / THEN
    expect(() => manifestsOf(chart)).toThrow(
      'the cloud is not valid (1 problem):\n[broken/config] replicas must be between 1 and 9, got 0',
    );
    expect(rendered).toBe(false);
  });

  test('names the object that is not a Kubernetes object, by position, in the contract’s words', () => {
    // WHEN / THEN
    expect(() =>
      manifestsOf([...twoComponentCloud('prod'), { kind: 'ConfigMap' } as unknown as KubeObject]),
    ).toThrow('object 4 is not a Kubernetes object (apiVersion, kind, metadata.name): {"kind":"ConfigMap"}');
  });

  test('refuses what is no source at all, naming what to pass', () => {
    // WHEN / THEN
    expect(() => manifestsOf(42 as unknown as string)).toThrow(
      'cannot read manifests from 42: pass a manifests directory or file, a list of objects or a chart',
    );
  });
});

describe('graphOf', () => {
  test("builds the chosen cloud's graph from any source", () => {
    // GIVEN
    const objects = [...twoComponentCloud('prod'), ...twoComponentCloud('staging')];

    // WHEN
    const graph = graphOf(objects, { cloud: 'staging' });

    // THEN
    expect(graph.components.map((c) => [c.name, c.cloud]).sort()).toEqual([
      ['keystone-api', 'staging'],
      ['mariadb', 'staging'],
    ]);
  });

  test("takes a graph as it is, and refuses one that is not the chosen cloud's", () => {
    // GIVEN
    const graph = graphOf(twoComponentCloud('prod'));

    // WHEN / THEN
    expect(graphOf(graph)).toBe(graph);
    expect(graphOf(graph, { cloud: 'prod' })).toBe(graph);
    expect(() => graphOf(graph, { cloud: 'staging' })).toThrow(
      "the graph is cloud prod's, not staging's: leave the option cloud out, or pass that cloud's graph",
    );
  });
});
