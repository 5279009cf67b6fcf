import { stringify } from 'yaml';
import { ComponentGraph } from '../graph';

/** One file of a GitOps layout: a path relative to the export root and its text. */
export interface ExportFile {
  readonly path: string;
  readonly content: string;
}

/** A GitOps layout as data, sorted by path, so a stack can write it, test it or diff it. */
export type ExportTree = readonly ExportFile[];

/** Multi-document YAML, one `---` separated document per value, keys in the order given. */
export function yamlDocuments(values: readonly unknown[]): string {
  return values
    .map((value) => stringify(value, { lineWidth: 0, aliasDuplicateObjects: false }))
    .join('---\n');
}

/** Sorts a tree by path and rejects two files at one path (a bug in an exporter, not user input). */
export function exportTree(files: readonly ExportFile[]): ExportTree {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  sorted.forEach((file, i) => {
    if (i > 0 && sorted[i - 1].path === file.path) throw new Error(`export wrote ${file.path} twice`);
  });
  return sorted;
}

/** The cloud's name from the components' annotations, for names that must not collide across clouds. */
export function cloudName(graph: ComponentGraph): string {
  const clouds = [...new Set(graph.components.map((c) => c.cloud).filter((c) => c !== ''))].sort();
  if (clouds.length > 1) {
    throw new Error(
      `the manifests hold ${clouds.length} clouds (${clouds.join(', ')}); export each cloud's manifests on their own`,
    );
  }
  return clouds[0] ?? 'stackwright';
}
