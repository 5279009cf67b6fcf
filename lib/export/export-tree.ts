import * as fs from 'fs';
import * as path from 'path';
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

/**
 * Writes a tree below `outDir`, replacing files of an earlier export that are no longer part of it
 * (a unit that disappeared must disappear from Git too, or the engine keeps applying it). Only
 * files this export could have written are removed: `*.yaml` below the layout's own folders.
 */
export function writeExportTree(tree: ExportTree, outDir: string): void {
  assertNoLinks(tree, outDir);
  const keep = new Set(tree.map((f) => path.join(outDir, f.path)));
  const roots = new Set(tree.map((f) => f.path.split('/')[0]));
  for (const root of roots) {
    for (const stale of listYaml(path.join(outDir, root)).filter((file) => !keep.has(file))) fs.rmSync(stale);
    removeEmptyFolders(path.join(outDir, root));
  }
  for (const file of tree) {
    const target = path.join(outDir, file.path);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, file.content);
  }
}

/**
 * Refuses a symbolic link where the export would write or clean up (a layout folder, anything
 * below it, a file it writes): following it would write or delete outside `outDir`.
 */
export function assertNoLinks(tree: ExportTree, outDir: string): void {
  const links = new Set<string>();
  const visit = (entry: string, below: boolean) => {
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(entry);
    } catch {
      return; // not there yet: the export creates it
    }
    if (stat.isSymbolicLink()) links.add(entry);
    else if (below && stat.isDirectory())
      for (const name of fs.readdirSync(entry)) visit(path.join(entry, name), true);
  };
  for (const root of new Set(tree.map((f) => f.path.split('/')[0]))) visit(path.join(outDir, root), true);
  for (const file of tree) {
    const parts = file.path.split('/');
    for (let i = 1; i <= parts.length; i++) visit(path.join(outDir, ...parts.slice(0, i)), false);
  }
  if (links.size > 0) {
    const list = [...links].sort();
    throw new Error(
      `${list.join(', ')} ${list.length === 1 ? 'is a symbolic link' : 'are symbolic links'} where the export writes; it writes only inside ${outDir} and does not follow links: remove ${list.length === 1 ? 'it' : 'them'} or choose another --out`,
    );
  }
}

function removeEmptyFolders(entry: string): void {
  if (!fs.existsSync(entry) || !fs.statSync(entry).isDirectory()) return;
  for (const name of fs.readdirSync(entry)) removeEmptyFolders(path.join(entry, name));
  if (fs.readdirSync(entry).length === 0) fs.rmdirSync(entry);
}

function listYaml(entry: string): string[] {
  if (!fs.existsSync(entry)) return [];
  if (!fs.statSync(entry).isDirectory()) return entry.endsWith('.yaml') ? [entry] : [];
  return fs.readdirSync(entry).flatMap((name) => listYaml(path.join(entry, name)));
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
