import * as fs from 'fs';
import * as path from 'path';
import {
  ARGOCD_CM_PATCH_FILE,
  ARGOCD_ROOT_FILE,
  exportArgoCd,
  exportFlux,
  exportKapp,
  ExportTree,
  FLUX_ROOT_FILE,
  KAPP_FOLDER,
  writeExportTree,
} from '../../export';
import { FileRefusedError } from '../../files';
import { ComponentGraph } from '../../graph';
import { ExitCode } from '../exit-codes';
import { CliIo } from '../io';
import { loadGraph, UsageError } from './common';

export type ExportEngine = 'flux' | 'argocd' | 'kapp';

export interface ExportOptions {
  readonly out?: string;
  /** Path of `out` inside the Git repository the engine reads; found from `.git` when left out. */
  readonly repoPath?: string;
  /** Argo CD only: the repository's URL. */
  readonly repoUrl?: string;
}

/**
 * `stackwright export flux|argocd|kapp [dir] --out <dir>`: the component graph of synthesised
 * manifests as a GitOps layout (docs/gitops.md). Every usage problem is reported before anything
 * is read or written.
 */
export function exportCommand(
  io: CliIo,
  engine: ExportEngine,
  dir: string | undefined,
  options: ExportOptions,
): number {
  if (!options.out)
    throw new UsageError(`export ${engine} needs --out <dir>, the folder to write the layout to`);
  const out = path.resolve(io.cwd, options.out);
  if (engine === 'argocd' && !options.repoUrl) {
    throw new UsageError(
      'export argocd needs --repo-url <url>, the Git repository Argo CD reads (e.g. https://git.example.com/platform/clusters.git)',
    );
  }
  const repoPath = engine === 'kapp' ? '' : (options.repoPath ?? repoPathOf(out, options.out));
  const { graph, dir: manifests } = loadGraph(io, dir);
  if (path.resolve(manifests) === out || out.startsWith(manifests + path.sep)) {
    throw new UsageError(
      `--out ${options.out} is inside the manifests directory ${path.relative(io.cwd, manifests) || manifests}; the next export would read its own output, choose another folder`,
    );
  }

  const tree = build(engine, graph, repoPath, options.repoUrl ?? '');
  try {
    writeExportTree(tree, out);
  } catch (error) {
    // Refused before anything was written: bad input, like every check above.
    if (error instanceof FileRefusedError) throw new UsageError(error.message);
    throw error;
  }
  const shown = path.relative(io.cwd, out) || '.';
  io.stdout.write(`wrote ${tree.length} files to ${shown}\n${nextStep(engine, shown)}\n`);
  return ExitCode.OK;
}

function build(engine: ExportEngine, graph: ComponentGraph, repoPath: string, repoUrl: string): ExportTree {
  try {
    if (engine === 'flux') return exportFlux(graph, { repoPath });
    if (engine === 'argocd') return exportArgoCd(graph, { repoPath, repoUrl });
    return exportKapp(graph);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function nextStep(engine: ExportEngine, out: string): string {
  if (engine === 'flux') return `commit and push it, then: kubectl apply -f ${out}/${FLUX_ROOT_FILE}`;
  if (engine === 'argocd') {
    return `merge ${out}/${ARGOCD_CM_PATCH_FILE} into argocd-cm, commit and push, then: kubectl apply -f ${out}/${ARGOCD_ROOT_FILE}`;
  }
  return `deploy it with: kapp deploy -a <app> -f ${out}/${KAPP_FOLDER}`;
}

/** `out` relative to the root of the Git repository holding it (a folder or file named `.git`). */
function repoPathOf(out: string, given: string): string {
  for (let dir = out; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, '.git'))) return path.relative(dir, out).split(path.sep).join('/');
    if (path.dirname(dir) === dir) break;
  }
  throw new UsageError(
    `--out ${given} is not inside a Git repository, so the path the engine reads it from is unknown; pass --repo-path <path of the folder inside the repository>`,
  );
}
