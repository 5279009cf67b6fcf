import { ComponentGraph } from '../../graph';
import {
  ClusterUnreachableError,
  diffCounts,
  FailureCause,
  failureCauses,
  InventoryLocation,
  inventoryLocation,
  KubeApiError,
  RequestCounts,
  RunResult,
} from '../../runtime';
import { ExitCode, ExitCodeValue } from '../exit-codes';
import { CliCluster } from '../io';
import { UsageError } from './common';

// What the commands that talk to a cluster share. Kept apart from `common.ts` so the commands
// that never connect (graph, synth) do not load the runtime and its Kubernetes client.

/** Where the graph's inventory lives; a graph that does not say (several clouds, no namespace) is a usage error. */
export function locate(graph: ComponentGraph): InventoryLocation {
  try {
    return inventoryLocation(graph);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
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

/** What each failure cause means for the exit code (anything not listed is FAILED). */
const EXIT_CODE_OF_CAUSE: Partial<Record<FailureCause, ExitCodeValue>> = {
  conflict: ExitCode.CONFLICT,
  'cluster-unreachable': ExitCode.UNREACHABLE,
  aborted: ExitCode.INTERRUPTED,
};

/**
 * The exit code for a finished run (deploy, verify, destroy or prune), read from the typed failure
 * causes: an interrupted run first, then a lost cluster, then field conflicts, else FAILED.
 */
export function exitCodeFor(result: RunResult): number {
  if (result.ok) return ExitCode.OK;
  if (result.outcome === 'aborted') return ExitCode.INTERRUPTED;
  const codes = new Set(failureCauses(result).map((cause) => EXIT_CODE_OF_CAUSE[cause]));
  if (result.outcome === 'unreachable' || codes.has(ExitCode.UNREACHABLE)) return ExitCode.UNREACHABLE;
  if (codes.has(ExitCode.CONFLICT)) return ExitCode.CONFLICT;
  return ExitCode.FAILED;
}
