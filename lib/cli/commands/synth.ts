import * as fs from 'fs';
import * as path from 'path';
import { graphFromManifests, loadManifests } from '../../graph';
import { ExitCode } from '../exit-codes';
import { CliIo } from '../io';
import { GlobalOptions, readCdk8sConfig, UsageError } from './common';

export interface SynthOptions {
  readonly app?: string;
  readonly output?: string;
}

/**
 * `stackwright synth`: runs the cdk8s app (cdk8s.yaml `app`, or `--app`) with `CDK8S_OUTDIR` set,
 * as `cdk8s synth` does, then reads the output back and validates the component graph, so a
 * broken graph fails here and not at deploy time. Stale `*.yaml` files in the output directory
 * are removed first: a chart that was deleted must not be deployed from an old file.
 */
export async function synthCommand(io: CliIo, options: SynthOptions, global: GlobalOptions): Promise<number> {
  const config = readCdk8sConfig(io.cwd);
  const app = options.app ?? config.app;
  if (!app) throw new UsageError('no app to run: pass --app "<command>" or add `app:` to cdk8s.yaml');
  const output = path.resolve(io.cwd, options.output ?? config.output ?? 'dist');
  fs.mkdirSync(output, { recursive: true });
  const stale = fs
    .readdirSync(output)
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => path.join(output, f));
  // Unlinking removes a link, never its target; a folder is not a stale manifest to delete.
  const folder = stale.find((file) => fs.lstatSync(file).isDirectory());
  if (folder) {
    throw new UsageError(
      `${folder} is a directory, where synth writes manifest files; rename or move it, or pass another --output`,
    );
  }
  for (const file of stale) fs.rmSync(file);

  const started = io.now();
  const code = await io.runShell(app, { CDK8S_OUTDIR: output });
  if (code !== 0) throw new UsageError(`the app \`${app}\` exited with code ${code}`);
  const files = fs
    .readdirSync(output)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort();
  if (files.length === 0) throw new UsageError(`the app \`${app}\` wrote no YAML to ${output}`);
  let graph;
  try {
    graph = graphFromManifests(loadManifests(output));
  } catch (error) {
    throw new UsageError(
      `synthesised manifests are invalid: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const objects = graph.bootstrap.length + graph.components.reduce((n, c) => n + c.objects.length, 0);
  const summary = {
    output: path.relative(io.cwd, output) || '.',
    files,
    objects,
    components: graph.components.length,
    durationMs: io.now() - started,
  };
  if (global.json) io.stdout.write(JSON.stringify({ type: 'synth', ...summary }) + '\n');
  else {
    io.stdout.write(
      `Synthesised ${objects} objects (${graph.components.length} components) to ${summary.output}/ in ${(summary.durationMs / 1000).toFixed(1)}s:\n` +
        files.map((f) => `  ${f}\n`).join(''),
    );
  }
  return ExitCode.OK;
}
