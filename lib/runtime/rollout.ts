import { ComponentGraph } from '../graph';
import { ClusterPort } from './ports';
import { RolloutResult } from './result';
import { RolloutOptions, VerifyOptions } from './rollout-options';

/**
 * Deploys the graph: bootstrap objects first, then each component as soon as its gating edges are
 * verified (per component, never level barriers), applying its objects with server-side apply and
 * verifying them from watch events. Never rejects for cluster errors: they end up in the result.
 */
export async function rollout(graph: ComponentGraph, cluster: ClusterPort, options: RolloutOptions = {}): Promise<RolloutResult> {
  void graph;
  void cluster;
  void options;
  throw new Error('rollout: not implemented yet');
}

/** Observes the graph's objects without writing and reports each component as `deploy` would. */
export async function verify(graph: ComponentGraph, cluster: ClusterPort, options: VerifyOptions = {}): Promise<RolloutResult> {
  void graph;
  void cluster;
  void options;
  throw new Error('verify: not implemented yet');
}
