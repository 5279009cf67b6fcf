import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { ComponentGraph, graphFromManifests, loadManifests } from '../../graph';
import { InventoryLocation, inventoryLocation } from '../../runtime/inventory';
import { ClusterUnreachableError, KubeApiError } from '../../runtime/kube/errors';
import { diffCounts, RequestCounts } from '../../runtime/kube/request-counter';
import { RolloutResult } from '../../runtime/result';
import { ExitCode } from '../exit-codes';
import { CliCluster, CliIo } from '../io';

/** Options every command accepts. */
export interface GlobalOptions {
  readonly kubeconfig?: string;
  readonly context?: string;
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

/** The cdk8s project file (`cdk8s.yaml`) in `cwd`, when there is one. */
export function readCdk8sConfig(cwd: string): { app?: string; output?: string } {
  const file = path.join(cwd, 'cdk8s.yaml');
  if (!fs.existsSync(file)) return {};
  const parsed: unknown = parse(fs.readFileSync(file, 'utf8'));
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

/** Loads and validates the component graph; every failure is a usage error naming the problem. */
export function loadGraph(io: CliIo, dir: string | undefined): { graph: ComponentGraph; dir: string } {
  const resolved = manifestDir(io, dir);
  if (!fs.existsSync(resolved)) {
    throw new UsageError(
      `${path.relative(io.cwd, resolved) || resolved} does not exist; run \`stackwright synth\` (or \`npx cdk8s synth\`) first`,
    );
  }
  try {
    return { graph: graphFromManifests(loadManifests(resolved)), dir: resolved };
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** Where the graph's inventory lives; a graph that does not say (several clouds, no namespace) is a usage error. */
export function locate(graph: ComponentGraph): InventoryLocation {
  try {
    return inventoryLocation(graph);
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
  const cluster = await io.openCluster({ kubeconfig: global.kubeconfig, context: global.context });
  try {
    return await fn(cluster);
  } finally {
    cluster.close();
  }
}

/** Requests made by `fn`, when the cluster counts them. */
export async function measured<T>(
  cluster: CliCluster,
  fn: () => Promise<T>,
): Promise<{ value: T; requests?: RequestCounts }> {
  const before = cluster.requests?.();
  const value = await fn();
  const after = cluster.requests?.();
  return { value, ...(before && after ? { requests: diffCounts(before, after) } : {}) };
}

/** The exit code for an error that escaped a command. */
export function exitCodeForError(error: unknown): number {
  if (error instanceof UsageError) return ExitCode.USAGE;
  if (error instanceof ClusterUnreachableError) return ExitCode.UNREACHABLE;
  if (error instanceof KubeApiError && (error.status === 401 || error.status === 403))
    return ExitCode.UNREACHABLE;
  return ExitCode.FAILED;
}

/** The exit code for a finished rollout or verify. */
export function exitCodeForRollout(result: RolloutResult): number {
  if (result.ok) return ExitCode.OK;
  if (result.outcome === 'aborted') return ExitCode.INTERRUPTED;
  const reasons = [result.bootstrap.reason ?? '', ...result.components.map((c) => c.reason ?? '')];
  if (reasons.some((r) => r.includes('server-side apply conflict'))) return ExitCode.CONFLICT;
  return ExitCode.FAILED;
}

/** Prints an error the way every command does: `stackwright: <message>` on stderr. */
export function printError(io: CliIo, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  io.stderr.write(`stackwright: ${message}\n`);
}
