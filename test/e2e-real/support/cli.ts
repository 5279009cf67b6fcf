/**
 * The command-line tools the real-node suite drives as a user would: `stackwright` (bin/, compiled
 * by `npm run build`) and the test cluster's own `kubectl` (exec, logs: they only work against a
 * real kubelet).
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { kubeconfigFromEnv } from '../../e2e/support/cluster';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

interface Run {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

function run(command: string, args: readonly string[], timeoutMs: number, input?: string | Buffer): Run {
  const res = spawnSync(command, args, {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    input,
    timeout: timeoutMs,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (res.error) throw res.error;
  return { status: res.status ?? 1, stdout: res.stdout, stderr: res.stderr };
}

/**
 * `npm run build`: bin/stackwright.js runs the compiled CLI. Skipped with
 * `STACKWRIGHT_E2E_BUILT=1`, which `.ci/run` sets after its own build: the kwok lane beside this
 * suite runs the same bundle meanwhile, and a rebuild rewrites it under its feet.
 */
export function buildCli(): void {
  if (process.env.STACKWRIGHT_E2E_BUILT === '1') return;
  const res = run('npm', ['run', 'build', '--silent'], 10 * 60_000);
  if (res.status !== 0) throw new Error(`npm run build failed:\n${res.stdout}\n${res.stderr}`);
}

/** The `summary` line of `stackwright deploy --json` (lib/cli/commands/deploy.ts). */
export interface DeploySummary {
  readonly ok: boolean;
  readonly outcome: string;
  readonly counts: Readonly<Record<string, number>>;
  readonly durationMs: number;
  readonly requests?: { readonly total: number; readonly writes: number };
}

export interface DeployRun {
  readonly status: number;
  readonly summary: DeploySummary;
  /** Each failed component with why and what the cluster said (`unit-failed` events), for failure messages. */
  readonly failures: readonly string[];
  /** Every JSON event line, for failure messages. */
  readonly output: string;
}

/** `stackwright deploy DIR --json` against the suite's cluster. */
export function deploy(dir: string, timeout: string): DeployRun {
  const res = run(
    'node',
    [
      'bin/stackwright.js',
      'deploy',
      dir,
      '--json',
      '--timeout',
      timeout,
      '--kubeconfig',
      kubeconfigFromEnv(),
    ],
    // The CLI's own --timeout ends the run; this only guards against a hung process.
    60 * 60_000,
  );
  const summary = res.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { type: string } & DeploySummary)
    .find((event) => event.type === 'summary');
  if (!summary) throw new Error(`stackwright deploy printed no summary (exit ${res.status}):\n${res.stderr}`);
  return {
    status: res.status,
    summary,
    failures: failuresOf(res.stdout),
    output: `${res.stdout}\n${res.stderr}`,
  };
}

/** What a deploy's success is judged by; {@link DEPLOY_SUCCEEDED} is a run that verified everything. */
export function deployVerdict(run: DeployRun) {
  return { status: run.status, ok: run.summary.ok, outcome: run.summary.outcome, failures: run.failures };
}

export const DEPLOY_SUCCEEDED = { status: 0, ok: true, outcome: 'succeeded', failures: [] };

/** `unit: reason [diagnosis]` of every `unit-failed` event in a `--json` stream. */
function failuresOf(stdout: string): string[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { type: string; unit?: string; reason?: string; diagnosis?: string[] })
    .filter((event) => event.type === 'unit-failed')
    .map(
      (event) =>
        `${event.unit}: ${event.reason}${event.diagnosis?.length ? ` [${event.diagnosis.join('; ')}]` : ''}`,
    );
}

/** `stackwright destroy DIR --yes`. */
export function destroy(dir: string): Run {
  return run(
    'node',
    ['bin/stackwright.js', 'destroy', dir, '--yes', '--kubeconfig', kubeconfigFromEnv()],
    20 * 60_000,
  );
}

/**
 * A suite's clean-up: `stackwright destroy DIR` (failures logged, not thrown: the cluster goes down
 * anyway), unless STACKWRIGHT_E2E_KEEP_CLUSTER=1 keeps the cloud for a look. True when destroyed.
 */
export function destroyUnlessKept(dir: string, namespace: string, log: (line: string) => void): boolean {
  if (process.env.STACKWRIGHT_E2E_KEEP_CLUSTER === '1') {
    log(`keeping namespace ${namespace} (STACKWRIGHT_E2E_KEEP_CLUSTER=1)`);
    return false;
  }
  const res = destroy(dir);
  if (res.status !== 0) log(`destroy failed: ${res.stderr}`);
  return true;
}

function runKubectl(args: readonly string[], input?: string | Buffer): string {
  const bin = process.env.STACKWRIGHT_CLUSTER_BIN;
  if (!bin) throw new Error('STACKWRIGHT_CLUSTER_BIN is not set: run through jest.real.config.js');
  const res = run(
    path.join(bin, 'kubectl'),
    ['--kubeconfig', kubeconfigFromEnv(), ...args],
    11 * 60_000,
    input,
  );
  if (res.status !== 0)
    throw new Error(`kubectl ${args.join(' ')} failed (exit ${res.status}): ${res.stderr}`);
  return res.stdout;
}

/** The cluster's kubectl (cluster.env names its directory); throws with stderr on failure. */
export function kubectl(...args: string[]): string {
  return runKubectl(args);
}

/** `kubectl apply` of one object. */
export function applyObject(object: object): string {
  return runKubectl(['apply', '-f', '-'], JSON.stringify(object));
}

/** Waits (up to `timeout`) for a pod to end in Succeeded; returns its log's lines. */
export function succeededPodLog(namespace: string, pod: string, timeout = '300s'): string[] {
  kubectl(
    '-n',
    namespace,
    'wait',
    `pod/${pod}`,
    '--for=jsonpath={.status.phase}=Succeeded',
    `--timeout=${timeout}`,
  );
  return kubectl('-n', namespace, 'logs', pod).trim().split('\n');
}

/** Runs `script` with `sh -c` in a container; extra args become $1, $2, ... of the script. */
export function execIn(
  namespace: string,
  pod: string,
  container: string,
  script: string,
  ...args: string[]
): string {
  return kubectl('-n', namespace, 'exec', pod, '-c', container, '--', 'sh', '-c', script, 'sh', ...args);
}

/** Writes `data` to `file` in a container (no tar needed, unlike `kubectl cp`). */
export function copyInto(
  namespace: string,
  pod: string,
  container: string,
  file: string,
  data: Buffer,
): void {
  runKubectl(
    ['-n', namespace, 'exec', '-i', pod, '-c', container, '--', 'sh', '-c', 'cat >"$1"', 'sh', file],
    data,
  );
}

/** The real node's name (cluster.env of a cluster started with `up.sh --real`). */
export function realNodeName(): string {
  const name = process.env.STACKWRIGHT_CLUSTER_REAL_NODE;
  if (!name)
    throw new Error('STACKWRIGHT_CLUSTER_REAL_NODE is not set: the cluster has no real node (up.sh --real)');
  return name;
}
