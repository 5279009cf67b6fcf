import * as fs from 'fs';
import * as path from 'path';
import { parseYamlDocument, readRegularFile } from '../../files';
import { ComponentGraph, graphOf, HowToChooseCloud } from '../../graph';
import { CliCluster, CliIo } from '../io';

/** Options every command accepts. */
export interface GlobalOptions {
  readonly kubeconfig?: string;
  readonly context?: string;
  /** `--cloud`: the cloud to work on when the manifests hold several. */
  readonly cloud?: string;
  /** `--api-loss-timeout`: how long to wait for a lost API server. */
  readonly apiLossTimeoutMs?: number;
  readonly json: boolean;
  /** False with `--no-color`. */
  readonly color: boolean;
}

/** Bad input or usage: exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The largest `cdk8s.yaml` read: a few lines in practice. */
const MAX_CDK8S_CONFIG_BYTES = 1024 * 1024;

/** The cdk8s project file (`cdk8s.yaml`) in `cwd`, when there is one; read and parsed with limits. */
export function readCdk8sConfig(cwd: string): { app?: string; output?: string } {
  const file = path.join(cwd, 'cdk8s.yaml');
  if (!fs.existsSync(file)) return {};
  let parsed: unknown;
  try {
    parsed = parseYamlDocument(
      readRegularFile(file, { what: 'cdk8s.yaml', maxBytes: MAX_CDK8S_CONFIG_BYTES }),
      file,
    );
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const config = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  return {
    ...(typeof config.app === 'string' ? { app: config.app } : {}),
    ...(typeof config.output === 'string' ? { output: config.output } : {}),
  };
}

/** The manifests directory: the argument, else cdk8s.yaml's `output`, else `dist`. */
export function manifestDir(io: CliIo, dir: string | undefined): string {
  return path.resolve(io.cwd, dir ?? readCdk8sConfig(io.cwd).output ?? 'dist');
}

/** How a CLI user chooses one of several clouds. */
export const CLOUD_OPTION: HowToChooseCloud = (example) =>
  `choose one with --cloud (e.g. --cloud ${example}); each cloud has its own inventory, so run the command once per cloud`;

/**
 * Loads and validates the component graph of one cloud (the only one in the manifests, or
 * `--cloud`); every failure is a usage error naming the problem.
 */
export function loadGraph(
  io: CliIo,
  dir: string | undefined,
  cloud?: string,
): { graph: ComponentGraph; dir: string } {
  const resolved = manifestDir(io, dir);
  if (!fs.existsSync(resolved)) {
    throw new UsageError(
      `${path.relative(io.cwd, resolved) || resolved} does not exist; run \`stackwright synth\` (or \`npx cdk8s synth\`) first`,
    );
  }
  try {
    return {
      graph: graphOf(resolved, { cloud, how: CLOUD_OPTION }),
      dir: resolved,
    };
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** Opens the cluster for a command and always closes it. */
export async function withCluster<T>(
  io: CliIo,
  global: GlobalOptions,
  fn: (cluster: CliCluster) => Promise<T>,
): Promise<T> {
  const cluster = await io.openCluster({
    kubeconfig: global.kubeconfig,
    context: global.context,
    apiLossTimeoutMs: global.apiLossTimeoutMs,
  });
  try {
    return await fn(cluster);
  } finally {
    cluster.close();
  }
}

/** Prints an error the way every command does: `stackwright: <message>` on stderr. */
export function printError(io: CliIo, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  io.stderr.write(`stackwright: ${message}\n`);
}
