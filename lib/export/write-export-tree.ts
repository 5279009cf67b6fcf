import * as fs from 'fs';
import * as path from 'path';
import { FileRefusedError, fileKind } from '../files';
import { ExportTree } from './export-tree';

/** The folder (inside `--out`, so every rename stays on one file system) an export is built in. */
const STAGING_PREFIX = '.stackwright-export-';

/** A top-level entry of a layout: `flux/`, `units/`, `root-kustomization.yaml`. */
interface Root {
  readonly name: string;
  readonly folder: boolean;
}

/**
 * Writes a tree below `outDir` so that a failure leaves the previous export as it was and nothing
 * outside `outDir` is touched. The new layout is built in a staging folder inside `outDir`; each of
 * its top-level entries (`flux/`, `units/`, `root-kustomization.yaml`) then replaces the old one by
 * `rename`, rolled back if a later rename fails. What the old folders held besides `*.yaml` (a
 * README, a link someone placed there) is carried over as it is, links as links, never followed;
 * the `*.yaml` files of units that disappeared are not, so they leave Git too.
 *
 * Refused before anything is written: a top-level entry that is a link (the export replaces it,
 * it does not write through it), a file where the layout has a folder or the reverse, and an
 * entry to carry over that is a FIFO, socket or device.
 */
export function writeExportTree(tree: ExportTree, outDir: string): void {
  const out = outFolder(outDir);
  for (const name of fs.readdirSync(out)) {
    // A staging folder left by a run that was killed: ours by its name.
    if (name.startsWith(STAGING_PREFIX)) fs.rmSync(path.join(out, name), { recursive: true, force: true });
  }
  const roots = rootsOf(tree);
  for (const root of roots) checkRoot(path.join(out, root.name), path.join(outDir, root.name), root);

  const staging = fs.mkdtempSync(path.join(out, STAGING_PREFIX));
  try {
    const fresh = path.join(staging, 'new');
    const previous = path.join(staging, 'previous');
    fs.mkdirSync(previous, { recursive: true });
    for (const file of tree) {
      const target = path.join(fresh, file.path);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, file.content, { flag: 'wx' });
    }
    for (const root of roots.filter((r) => r.folder)) {
      const live = path.join(out, root.name);
      if (fs.existsSync(live)) carryOver(live, path.join(fresh, root.name), path.join(outDir, root.name));
    }
    swap(out, roots, fresh, previous);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** `outDir`, created when missing, with links resolved (the user named it: it may be a link). */
function outFolder(outDir: string): string {
  const existing = statOrUndefined(outDir);
  if (existing && !existing.isDirectory()) {
    throw new FileRefusedError(
      outDir,
      `--out ${outDir} is ${fileKind(existing)}, not a folder; pass a folder`,
    );
  }
  fs.mkdirSync(outDir, { recursive: true });
  return fs.realpathSync(outDir);
}

function rootsOf(tree: ExportTree): Root[] {
  const roots = new Map<string, boolean>();
  for (const file of tree) {
    const [name, ...rest] = file.path.split('/');
    roots.set(name, (roots.get(name) ?? false) || rest.length > 0);
  }
  return [...roots].map(([name, folder]) => ({ name, folder }));
}

function checkRoot(live: string, shown: string, root: Root): void {
  let stats: fs.Stats;
  try {
    stats = fs.lstatSync(live);
  } catch {
    return;
  }
  const what = root.folder ? 'folder' : 'file';
  if (stats.isSymbolicLink()) {
    throw new FileRefusedError(
      shown,
      `${shown} is a symbolic link to ${fs.readlinkSync(live)}; the export replaces this ${what} and never writes through a link: remove the link (its target is left alone)`,
    );
  }
  if (root.folder ? !stats.isDirectory() : !stats.isFile()) {
    throw new FileRefusedError(
      shown,
      `${shown} is ${fileKind(stats)}, where the export writes a ${what}; move it away`,
    );
  }
}

/**
 * Copies what an old folder of the layout holds besides `*.yaml` into the new one, where the new
 * one has nothing at that path: regular files by copy, links as links (not followed), folders
 * recursively. Anything else cannot be copied and is refused by name.
 */
function carryOver(from: string, to: string, shown: string): void {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    const where = path.join(shown, entry.name);
    if (entry.isDirectory()) {
      if (!statOrUndefined(target)?.isFile()) carryOver(source, target, where);
      continue;
    }
    if (entry.name.endsWith('.yaml') || fs.existsSync(target)) continue;
    if (entry.isFile()) {
      fs.mkdirSync(to, { recursive: true });
      fs.copyFileSync(source, target, fs.constants.COPYFILE_EXCL);
    } else if (entry.isSymbolicLink()) {
      fs.mkdirSync(to, { recursive: true });
      fs.symlinkSync(fs.readlinkSync(source), target);
    } else {
      throw new FileRefusedError(
        where,
        `${where} is ${fileKind(fs.lstatSync(source))} inside a folder the export replaces; it cannot be carried over: move it out of the export`,
      );
    }
  }
}

/** Moves each new top-level entry into place, the old one aside; undoes every move on a failure. */
function swap(out: string, roots: readonly Root[], fresh: string, previous: string): void {
  const moves: [from: string, to: string][] = [];
  const move = (from: string, to: string) => {
    fs.renameSync(from, to);
    moves.push([from, to]);
  };
  try {
    for (const root of roots) {
      const live = path.join(out, root.name);
      if (lstatOrUndefined(live)) move(live, path.join(previous, root.name));
      move(path.join(fresh, root.name), live);
    }
  } catch (error) {
    for (const [from, to] of moves.reverse()) fs.renameSync(to, from);
    throw error;
  }
}

function statOrUndefined(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
}

function lstatOrUndefined(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(file);
  } catch {
    return undefined;
  }
}
