import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { KubeObject } from '../../lib/graph';
import { component, configMap, deployment, namespace } from '../runtime/support/manifests';
import { hostileString } from './hostile';
import { applyMutations, describeValue, Mutation, mutation } from './mutation';

/**
 * Hostile manifest directories: a valid little cloud whose objects are changed by the same
 * mutations as construct props (wrong kinds, missing or hostile annotations, NaN, unicode, deep
 * values), hostile YAML text (alias bombs, deep nesting, duplicate keys, tags, bad UTF-8, huge
 * documents), and hostile entries in the directory tree (a directory named `x.yaml`, links out of
 * the tree, to a device, a FIFO; links inside the export's `--out`).
 */

/** The valid cloud every tree starts from. */
function cloud(): KubeObject[] {
  return [
    namespace(),
    ...component('mariadb', {}, deployment('mariadb'), configMap('mariadb-config')),
    ...component('keystone-api', { needs: { mariadb: 'ready' } }, deployment('keystone-api')),
  ];
}

const OBJECT_KEYS = ['apiVersion', 'kind', 'metadata', 'spec', 'data'];

/** YAML text no object mutation makes. */
export type HostileText =
  | {
      readonly kind: 'alias-bomb';
      readonly levels: number;
      readonly width: number;
      readonly where: 'data' | 'spec';
    }
  | { readonly kind: 'deep'; readonly depth: number; readonly flow: boolean }
  | { readonly kind: 'duplicate-key'; readonly key: 'name' | 'kind' | 'annotations' }
  | { readonly kind: 'tag'; readonly tag: string }
  | { readonly kind: 'bytes'; readonly bytes: readonly number[] }
  | { readonly kind: 'huge'; readonly mib: number }
  | { readonly kind: 'many-documents'; readonly count: number }
  | { readonly kind: 'scalar-document'; readonly text: string };

/** Entries of the directory tree besides the manifest files. */
export type TreeEntry =
  | 'directory-named-yaml'
  | 'link-to-outside-file'
  | 'link-to-outside-directory'
  | 'link-to-device'
  | 'fifo'
  | 'dangling-link'
  | 'link-in-export-out';

export interface ManifestTree {
  readonly objectMutations: readonly (readonly [number, readonly Mutation[]])[];
  readonly texts: readonly HostileText[];
  readonly entries: readonly TreeEntry[];
}

const hostileText: fc.Arbitrary<HostileText> = fc.oneof(
  fc.record({
    kind: fc.constant('alias-bomb' as const),
    levels: fc.integer({ min: 2, max: 12 }),
    width: fc.integer({ min: 2, max: 10 }),
    where: fc.constantFrom('data' as const, 'spec' as const),
  }),
  fc.record({
    kind: fc.constant('deep' as const),
    depth: fc.constantFrom(10, 500, 5_000, 50_000),
    flow: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('duplicate-key' as const),
    key: fc.constantFrom('name' as const, 'kind' as const, 'annotations' as const),
  }),
  fc.record({
    kind: fc.constant('tag' as const),
    tag: fc.constantFrom('!!binary', '!!timestamp', '!custom', '!!js/function', '!!set', '!!omap'),
  }),
  fc.record({
    kind: fc.constant('bytes' as const),
    bytes: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 64 }),
  }),
  fc.record({ kind: fc.constant('huge' as const), mib: fc.constantFrom(1, 3.5) }),
  fc.record({ kind: fc.constant('many-documents' as const), count: fc.constantFrom(2_000, 20_000) }),
  fc.record({
    kind: fc.constant('scalar-document' as const),
    text: hostileString.filter((s) => s.length < 500),
  }),
);

const treeEntry: fc.Arbitrary<TreeEntry> = fc.constantFrom(
  'directory-named-yaml',
  'link-to-outside-file',
  'link-to-outside-directory',
  'link-to-device',
  'fifo',
  'dangling-link',
  'link-in-export-out',
);

const objectMutations = fc.array(fc.tuple(fc.nat(), fc.array(mutation, { minLength: 1, maxLength: 2 })), {
  minLength: 1,
  maxLength: 2,
});

/** One hostile thing alone (so that what follows a refused input is reached too), or several. */
export const manifestTree: fc.Arbitrary<ManifestTree> = fc
  .oneof(
    fc.record({ objectMutations, texts: fc.constant([]), entries: fc.constant([]) }),
    fc.record({ objectMutations: fc.constant([]), texts: fc.tuple(hostileText), entries: fc.constant([]) }),
    fc.record({ objectMutations: fc.constant([]), texts: fc.constant([]), entries: fc.tuple(treeEntry) }),
    fc.record({
      objectMutations,
      texts: fc.array(hostileText, { maxLength: 2 }),
      entries: fc.uniqueArray(treeEntry, { maxLength: 2 }),
    }),
  )
  .map((tree) => Object.defineProperty(tree, fc.toStringMethod, { value: () => describeTree(tree) }));

/** A short description of a tree for the report of a failure. */
export function describeTree(tree: ManifestTree): string {
  const objects = tree.objectMutations.map(
    ([i, ms]) =>
      `object ${i % cloud().length}: ${ms.map((m) => `${m.kind} ${'index' in m ? m.index : ''} = ${describeValue(m.value)}`).join(', ')}`,
  );
  const texts = tree.texts.map((t) =>
    describeValue({ ...t, ...('bytes' in t ? { bytes: `${t.bytes.length} bytes` } : {}) }),
  );
  return [...objects, ...texts, ...tree.entries].join('; ') || 'the valid cloud';
}

/** The YAML of `object`, or `undefined` when even the generator cannot write it (nesting past its stack). */
function yamlOf(object: unknown): string | undefined {
  try {
    return stringify(object);
  } catch {
    return undefined;
  }
}

function textOf(t: HostileText): string | Buffer {
  switch (t.kind) {
    case 'alias-bomb': {
      const lines = ['a0: &a0 "lol"'];
      for (let i = 1; i <= t.levels; i++)
        lines.push(`a${i}: &a${i} [${Array.from({ length: t.width }, () => `*a${i - 1}`).join(', ')}]`);
      const body = lines.map((l) => `  ${l}`).join('\n');
      return t.where === 'data'
        ? `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\n  namespace: openstack\n  annotations:\n    stackwright.io/component: mariadb\ndata:\n${body}\n`
        : `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: bomb\n  namespace: openstack\n  annotations:\n    stackwright.io/component: mariadb\nspec:\n${body}\n`;
    }
    case 'deep':
      return t.flow
        ? `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: deep, namespace: openstack}\ndata: ${'['.repeat(t.depth)}${']'.repeat(t.depth)}\n`
        : `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\ndata:\n${Array.from({ length: Math.min(t.depth, 2_000) }, (_, i) => `${' '.repeat(i + 1)}- `).join('\n')}x\n`;
    case 'duplicate-key':
      return t.key === 'annotations'
        ? 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dup\n  annotations: {a: "1"}\n  annotations: {b: "2"}\n'
        : `apiVersion: v1\nkind: ConfigMap\n${t.key === 'kind' ? 'kind: Secret\n' : ''}metadata:\n  name: dup\n${t.key === 'name' ? '  name: dup2\n' : ''}`;
    case 'tag':
      return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: tagged\n  namespace: openstack\ndata:\n  x: ${t.tag} "aGVsbG8="\n`;
    case 'bytes':
      return Buffer.from(t.bytes);
    case 'huge':
      return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: huge\n  namespace: openstack\n  annotations:\n    stackwright.io/component: mariadb\ndata:\n  x: "${'x'.repeat(t.mib * 1024 * 1024)}"\n`;
    case 'many-documents':
      return Array.from({ length: t.count }, () => '--- null').join('\n') + '\n';
    case 'scalar-document':
      return `--- ${JSON.stringify(t.text)}\n`;
  }
}

/** Where a tree is written: the manifests, a folder outside them that links point at, the export's `--out`. */
export interface TreeLayout {
  readonly root: string;
  readonly manifests: string;
  readonly outside: string;
  readonly out: string;
}

/** Writes `tree` under `root` (a fresh temporary directory). */
export function writeTree(tree: ManifestTree, root: string): TreeLayout {
  const layout = {
    root,
    manifests: path.join(root, 'manifests'),
    outside: path.join(root, 'outside'),
    out: path.join(root, 'export-out'),
  };
  for (const dir of [layout.manifests, layout.outside, layout.out]) fs.mkdirSync(dir);
  // What a link out of the tree would reach: a manifest, and files an export must never delete.
  fs.writeFileSync(
    path.join(layout.outside, 'kept.yaml'),
    'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: elsewhere\n',
  );
  const objects: unknown[] = cloud();
  for (const [index, mutations] of tree.objectMutations) {
    const i = index % objects.length;
    objects[i] = applyMutations(objects[i] as Record<string, unknown>, mutations, OBJECT_KEYS);
  }
  const documents = objects.map((o, i) => yamlOf(o) ?? yamlOf(cloud()[i]) ?? '');
  fs.writeFileSync(path.join(layout.manifests, '0000-cloud.k8s.yaml'), documents.join('---\n'));
  tree.texts.forEach((t, i) =>
    fs.writeFileSync(path.join(layout.manifests, `${1000 + i}-hostile.k8s.yaml`), textOf(t)),
  );
  for (const entry of tree.entries) addEntry(entry, layout);
  return layout;
}

function addEntry(entry: TreeEntry, layout: TreeLayout): void {
  const at = (name: string) => path.join(layout.manifests, name);
  switch (entry) {
    case 'directory-named-yaml':
      fs.mkdirSync(at('0500-folder.yaml'));
      return;
    case 'link-to-outside-file':
      fs.symlinkSync(path.join(layout.outside, 'kept.yaml'), at('0501-link.yaml'));
      return;
    case 'link-to-outside-directory':
      fs.symlinkSync(layout.outside, at('0502-linked-folder.yaml'));
      return;
    case 'link-to-device':
      fs.symlinkSync('/dev/zero', at('0503-device.yaml'));
      return;
    case 'fifo':
      execFileSync('mkfifo', [at('0504-fifo.yaml')]);
      return;
    case 'dangling-link':
      fs.symlinkSync(path.join(layout.root, 'missing.yaml'), at('0505-dangling.yaml'));
      return;
    case 'link-in-export-out':
      // Every engine's first folder, linked to the folder outside: an export must not write or delete there.
      for (const name of ['flux', 'units', 'argocd', 'kapp'])
        fs.symlinkSync(layout.outside, path.join(layout.out, name));
      for (const name of ['root-kustomization.yaml', 'root-application.yaml'])
        fs.symlinkSync(path.join(layout.outside, 'kept.yaml'), path.join(layout.out, name));
      return;
  }
}
