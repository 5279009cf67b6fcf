/**
 * Which cluster the e2e tests talk to, and starting/stopping the local one
 * (scripts/cluster/{up,down,status}.sh). Used by the jest global setup/teardown.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/** Primary variable; tests read the kubeconfig path from here. */
export const KUBECONFIG_ENV = 'STACKWRIGHT_E2E_KUBECONFIG';
/** Accepted alias (CI convention). */
export const KUBECONFIG_ENV_ALIAS = 'KUBECONFIG_E2E';
/** Set to 1 to leave a cluster started by the global setup running after the tests. */
export const KEEP_CLUSTER_ENV = 'STACKWRIGHT_E2E_KEEP_CLUSTER';
/** Internal: set by the global setup when it started the cluster itself. */
const STARTED_MARKER_ENV = 'STACKWRIGHT_E2E_STARTED_CLUSTER';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
const SCRIPTS = path.join(REPO_ROOT, 'scripts', 'cluster');

/** The kubeconfig chosen by the global setup; throws if setup did not run. */
export function kubeconfigFromEnv(): string {
  const file = process.env[KUBECONFIG_ENV] ?? process.env[KUBECONFIG_ENV_ALIAS];
  if (!file) {
    throw new Error(
      `${KUBECONFIG_ENV} is not set: run e2e tests with jest --config jest.e2e.config.js (its global setup starts the cluster) or point ${KUBECONFIG_ENV} at a cluster`,
    );
  }
  return file;
}

function runScript(
  script: string,
  args: readonly string[] = [],
  quiet = false,
): { status: number; stdout: string } {
  const res = spawnSync('bash', [path.join(SCRIPTS, script), ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    // stdout is captured (up.sh prints the kubeconfig path there); progress goes to stderr.
    stdio: ['ignore', 'pipe', quiet ? 'ignore' : 'inherit'],
  });
  if (res.error) throw res.error;
  return { status: res.status ?? 1, stdout: res.stdout ?? '' };
}

/** True when the local cluster's components are all running and healthy. */
export function localClusterRunning(): boolean {
  return runScript('status.sh', [], true).status === 0;
}

/** True when the local cluster's status lists a real node (status.sh then also checks its health). */
function localRealNodeRunning(): boolean {
  return /^kubelet\s+\d+\s+running/m.test(runScript('status.sh', [], true).stdout);
}

/** What the suite needs from the cluster it starts. */
export interface ClusterRequirements {
  /** A real node (containerd + kubelet) next to the kwok nodes: `up.sh --real`. @default false */
  readonly realNode?: boolean;
}

/**
 * Ensures a cluster and exports its kubeconfig path in STACKWRIGHT_E2E_KUBECONFIG and
 * KUBECONFIG_E2E (jest workers inherit the environment of the global setup).
 */
export function setupCluster(requirements: ClusterRequirements = {}): void {
  const explicit = process.env[KUBECONFIG_ENV] ?? process.env[KUBECONFIG_ENV_ALIAS];
  if (explicit) {
    if (!existsSync(explicit)) throw new Error(`${KUBECONFIG_ENV}=${explicit}: file not found`);
    exportKubeconfig(explicit);
    return;
  }
  // With a real node, "running" must include it: up.sh restarts a cluster that lacks one.
  const wasRunning = localClusterRunning() && (!requirements.realNode || localRealNodeRunning());
  const up = runScript('up.sh', requirements.realNode ? ['--real'] : []);
  if (up.status !== 0)
    throw new Error(`scripts/cluster/up.sh failed (exit ${up.status}); see the output above`);
  const kubeconfig = up.stdout.trim().split('\n').pop() ?? '';
  if (!existsSync(kubeconfig))
    throw new Error(`up.sh printed no usable kubeconfig path (got "${kubeconfig}")`);
  exportKubeconfig(kubeconfig);
  if (!wasRunning) process.env[STARTED_MARKER_ENV] = '1';
}

/** Stops the local cluster if (and only if) setupCluster started it. Logs are kept. */
export function teardownCluster(): void {
  if (process.env[STARTED_MARKER_ENV] !== '1') return;
  if (process.env[KEEP_CLUSTER_ENV] === '1') {
    process.stderr.write(`[e2e] ${KEEP_CLUSTER_ENV}=1: leaving the cluster running (npm run cluster:down)\n`);
    return;
  }
  const down = runScript('down.sh', ['--keep-logs']);
  delete process.env[STARTED_MARKER_ENV];
  if (down.status !== 0) throw new Error(`scripts/cluster/down.sh failed (exit ${down.status})`);
}

function exportKubeconfig(file: string): void {
  process.env[KUBECONFIG_ENV] = file;
  process.env[KUBECONFIG_ENV_ALIAS] = file;
  exportClusterFacts(path.join(path.dirname(file), 'cluster.env'));
}

/**
 * up.sh writes `cluster.env` next to the kubeconfig (STACKWRIGHT_CLUSTER_BIN, _LOGS,
 * _AUDIT_LOG, _API_URL, ...). Export those STACKWRIGHT_CLUSTER_* facts for tests and benchmarks
 * (e.g. the audit log path) unless the caller already set them. Its KUBECONFIG line is not
 * exported: tests must not touch a developer's default kubeconfig.
 */
export function exportClusterFacts(envFile: string): void {
  if (!existsSync(envFile)) return;
  for (const line of readFileSync(envFile, 'utf8').split('\n')) {
    const match = /^(STACKWRIGHT_CLUSTER_[A-Z_]+)=(.*)$/.exec(line.trim());
    if (match && process.env[match[1]] === undefined) process.env[match[1]] = match[2];
  }
}
