/**
 * Rollout benchmark on the live test cluster (see RESULTS.md for the command and the numbers).
 *
 * For chain, fan-out, diamond, skewed-level and comb graphs whose pods turn Ready after a known delay
 * (kwok stage annotation), it measures the wall time of
 *   - `stackwright`: `deploy()` — per-component scheduling, no barriers;
 *   - `stackwright-cli`: the same rollout as a user starts it, `node bin/stackwright.js deploy <dir>`,
 *     timed from process start to exit (Node start-up, loading, reading the manifests included);
 *   - `waves`: the same engine on the same manifests with level barriers added (sync-wave style);
 *   - `kubectl`: sequential `kubectl apply --server-side` + `kubectl wait` in dependency order;
 *   - `flux`: the graph exported with `exportFlux`, applied by Flux's kustomize-controller;
 *   - `kapp`: the graph exported with `exportKapp`, deployed by `kapp deploy`;
 * against the physical limit (critical path of readiness delays plus one apply round trip per
 * component), and counts API requests per object from the API server's audit log.
 */
import { spawn } from 'child_process';
import { performance } from 'perf_hooks';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ComponentGraph, KubeObject } from '../../lib/graph';
import { deploy } from '../../lib/runtime/operations/deploy';
import { RunEvent } from '../../lib/runtime/events';
import { KubeCluster } from '../../lib/runtime/kube/kube-cluster';
import { USER_AGENT } from '../../lib/runtime/kube/transport';
import { waitUntilGone } from '../../lib/runtime/operations/delete-in-reverse-order';
import { auditCounts, fileSize } from './audit';
import { kubectlSequential, warmKubectl } from './kubectl-baseline';
import { FLUX_USER_AGENT, fluxRollout, forgetKappApp, KAPP_USER_AGENT, kappRollout } from './gitops-engines';
import { FluxController } from '../support/gitops/flux-controller';
import { GitOpsBinaries, gitOpsBinaries } from '../support/gitops/gitops-binaries';
import { Kubectl, kubectlFor } from '../support/gitops/kubectl';
import {
  chain,
  comb,
  criticalPathMs,
  diamond,
  fanOut,
  graphOf,
  manifests,
  Shape,
  skewedLevels,
  withLevelBarriers,
} from './shapes';
import { stringify } from 'yaml';
import { median } from '../support/run-options';

/** The repository (this file runs from source or from dist-lib/bench/rollout). */
const REPO_ROOT = path.join(__dirname, '..', '..').replace(/[\\/]dist-lib$/, '');

type Tool = 'stackwright' | 'stackwright-cli' | 'stackwright-c8' | 'waves' | 'kubectl' | 'flux' | 'kapp';

interface Case {
  readonly shape: Shape;
  readonly tools: readonly Tool[];
}

interface Measurement {
  readonly shape: Shape;
  readonly tool: Tool;
  readonly wallMs: number;
  /** For the engine runs: where the time beyond the cluster's own work went. */
  readonly overhead?: Overhead;
  readonly ok: boolean;
  readonly requests: number;
  readonly writes: number;
  readonly objects: number;
}

const ALL: readonly Tool[] = ['stackwright', 'waves', 'kubectl', 'flux', 'kapp'];
/** Every tool but sequential kubectl, which the large graphs would keep busy for minutes. */
const WIDE: readonly Tool[] = ['stackwright', 'waves', 'flux', 'kapp'];

function cases(quick: boolean): Case[] {
  // The CLI from process start on the shapes the cluster is not the bottleneck of (few Deployments
  // at once), where the whole command should land within max(1 s, 5 %) of the limit.
  if (quick)
    return [
      { shape: chain(3, 500), tools: [...ALL, 'stackwright-cli'] },
      { shape: fanOut(10, 500), tools: ALL },
    ];
  return [
    { shape: chain(10, 1000), tools: [...ALL, 'stackwright-cli'] },
    { shape: fanOut(50, 1000), tools: [...ALL, 'stackwright-c8'] },
    { shape: fanOut(200, 1000), tools: WIDE },
    { shape: diamond(50, 1000), tools: ALL },
    { shape: skewedLevels(5, 4, 500, 3000), tools: [...ALL, 'stackwright-cli'] },
    { shape: skewedLevels(10, 10, 500, 3000), tools: [...WIDE, 'stackwright-cli'] },
    // A long critical path beside a crowd that is ready at the same moment (issue 26).
    { shape: comb(10, 40, 4000, 1000), tools: [...ALL, 'stackwright-cli'] },
  ];
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const outIndex = args.indexOf('--out');
  const out = outIndex >= 0 ? args[outIndex + 1] : undefined;
  const toolsIndex = args.indexOf('--tools');
  const only = toolsIndex >= 0 ? new Set(args[toolsIndex + 1].split(',')) : undefined;
  const shapesIndex = args.indexOf('--shapes');
  const shapes = shapesIndex >= 0 ? new Set(args[shapesIndex + 1].split(',')) : undefined;
  const env = clusterEnv();
  log(`cluster: ${env.kubeconfig}; audit log: ${env.auditLog ?? 'none (request counter used)'}`);

  const admin = await KubeCluster.connect({
    kubeconfig: env.kubeconfig,
    userAgent: 'stackwright-bench-admin',
  });
  const version = await admin.serverVersion();
  const kubectlVersion = await warmKubectl(env.kubectl, env.kubeconfig);
  const rttMs = await applyRoundTrip(admin);
  const controllerMs = await controllerLatency(env, admin);
  log(
    `apply round trip ${rttMs.toFixed(1)} ms; controller latency per component ${controllerMs.toFixed(0)} ms`,
  );

  const selected = cases(quick)
    .filter((c) => !shapes || shapes.has(c.shape.name))
    .map((c) => ({ ...c, tools: c.tools.filter((t) => !only || only.has(t)) }));
  const gitops = await startGitOps(env, new Set(selected.flatMap((c) => c.tools)));
  const measurements: Measurement[] = [];
  const started = performance.now();
  for (const { shape, tools } of selected) {
    for (const tool of tools) {
      const m = await measure(env, admin, shape, tool, gitops);
      measurements.push(m);
      log(
        `${shape.name.padEnd(16)} ${tool.padEnd(15)} ${(m.wallMs / 1000).toFixed(2)} s  ${m.ok ? '' : 'FAILED'}`,
      );
    }
  }
  await gitops.controller?.stop();
  admin.close();

  const report = renderReport({
    measurements,
    rttMs,
    controllerMs,
    version,
    kubectlVersion,
    totalMs: performance.now() - started,
    quick,
  });
  process.stdout.write(report);
  if (out) fs.writeFileSync(out, report);
}

/** The GitOps engines, when any is measured: binaries, kubectl, and Flux's controller when Flux is. */
interface GitOps {
  readonly binaries?: GitOpsBinaries;
  readonly kubectl: Kubectl;
  readonly controller?: FluxController;
}

async function startGitOps(env: ClusterEnv, tools: ReadonlySet<Tool>): Promise<GitOps> {
  const kubectl = kubectlFor(env.kubectl, env.kubeconfig);
  if (!tools.has('flux') && !tools.has('kapp')) return { kubectl };
  const binaries = gitOpsBinaries();
  if (!tools.has('flux')) return { binaries, kubectl };
  const controller = await FluxController.start({
    binaries,
    kubeconfig: env.kubeconfig,
    kubectl,
    namespace: 'flux-system',
    logFile: path.join(os.tmpdir(), `bench-kustomize-controller-${process.pid}.log`),
  });
  return { binaries, kubectl, controller };
}

async function measure(
  env: ClusterEnv,
  admin: KubeCluster,
  shape: Shape,
  tool: Tool,
  gitops: GitOps,
): Promise<Measurement> {
  const namespace = `bench-${shape.name}-${tool}-${Math.random().toString(36).slice(2, 6)}`.slice(0, 63);
  const graph = graphOf(shape, `bench-${tool}`, namespace);
  const objects = graph.bootstrap.length + graph.components.reduce((n, c) => n + c.objects.length, 0);
  const userAgent =
    { kubectl: 'kubectl/', flux: FLUX_USER_AGENT, kapp: KAPP_USER_AGENT, 'stackwright-cli': USER_AGENT }[
      tool as string
    ] ?? `stackwright-bench-${tool}`;
  const offset = env.auditLog ? fileSize(env.auditLog) : 0;
  let ok = true;
  let counter = { total: 0, writes: 0 };
  let overhead: Overhead | undefined;
  const events: RunEvent[] = [];
  const t0 = performance.now();
  const epoch0 = Date.now();
  let engineMs: number | undefined;
  if (tool === 'kubectl') {
    await kubectlSequential(env.kubectl, env.kubeconfig, graph);
  } else if (tool === 'flux') {
    engineMs = await fluxRollout(
      gitops.kubectl,
      gitops.controller as FluxController,
      graph,
      `${namespace}-flux`.slice(0, 63),
    );
  } else if (tool === 'kapp') {
    await kappRollout(gitops.binaries as GitOpsBinaries, env.kubeconfig, graph, namespace);
  } else if (tool === 'stackwright-cli') {
    const cli = await cliDeploy(
      env.kubeconfig,
      manifests(shape, `bench-${tool}`, namespace),
      shape.components.length,
    );
    ok = cli.ok;
    engineMs = cli.wallMs;
  } else {
    const port = await KubeCluster.connect({ kubeconfig: env.kubeconfig, userAgent });
    try {
      const input: ComponentGraph = tool === 'waves' ? withLevelBarriers(graph) : graph;
      const concurrency = tool === 'stackwright-c8' ? 8 : Math.max(8, graph.components.length);
      const result = await deploy(input, {
        cluster: port,
        concurrency,
        preflight: 'off',
        componentTimeoutMs: 300_000,
        onEvent: (e) => events.push(e),
      });
      ok = result.ok;
      counter = port.requests.snapshot();
      overhead = toolOverhead(input, events, epoch0, Date.now());
    } finally {
      port.close();
    }
  }
  const wallMs = engineMs ?? performance.now() - t0;
  let requests = counter.total;
  let writes = counter.writes;
  if (env.auditLog) {
    await sleep(1500); // the audit backend writes asynchronously
    const audited = auditCounts(env.auditLog, offset, userAgent);
    requests = audited.total;
    writes = audited.writes;
  }
  if (tool === 'flux') await deleteNamespace(admin, `${namespace}-flux`.slice(0, 63));
  await deleteNamespace(admin, namespace);
  if (tool === 'kapp') await forgetKappApp(gitops.binaries as GitOpsBinaries, env.kubeconfig, namespace);
  return { shape, tool, wallMs, ok, requests, writes, objects, ...(overhead ? { overhead } : {}) };
}

/**
 * `node bin/stackwright.js deploy <dir>` on `objects` written as YAML, as a user runs it (the bundle
 * when `npm run build` wrote it): the wall time from spawning the process to its exit.
 */
async function cliDeploy(
  kubeconfig: string,
  objects: readonly KubeObject[],
  width: number,
): Promise<{ readonly ok: boolean; readonly wallMs: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-cli-'));
  fs.writeFileSync(path.join(dir, 'bench.k8s.yaml'), objects.map((o) => stringify(o)).join('---\n'));
  try {
    const started = performance.now();
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          path.join(REPO_ROOT, 'bin', 'stackwright.js'),
          'deploy',
          dir,
          '--kubeconfig',
          kubeconfig,
          '--json',
          '--preflight',
          'off',
          '--concurrency',
          String(Math.max(8, width)),
        ],
        { stdio: 'ignore' },
      );
      child.on('error', reject);
      child.on('exit', resolve);
    });
    return { ok: code === 0, wallMs: performance.now() - started };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The part of a run's time the tool itself adds, read from its events. */
interface Overhead {
  /** Start of `deploy()` to the first component start: connect, inventory, discovery, bootstrap. */
  readonly startupMs: number;
  /** Dependency verified -> dependant started, summed along the critical (last-finishing) path. */
  readonly handoffsMs: number;
  /** Number of hand-offs on that path. */
  readonly handoffs: number;
  /** The slowest single hand-off of the run. */
  readonly maxHandoffMs: number;
  /** Last component verified -> `deploy()` returned: final inventory write. */
  readonly teardownMs: number;
}

function toolOverhead(
  graph: ComponentGraph,
  events: readonly RunEvent[],
  startedAt: number,
  endedAt: number,
): Overhead {
  const started = new Map<string, number>();
  const verified = new Map<string, number>();
  for (const e of events) {
    if (e.type === 'unit-started') started.set(e.unit, Date.parse(e.at));
    if (e.type === 'unit-done') verified.set(e.unit, Date.parse(e.at));
  }
  const needs = new Map(graph.components.map((c) => [c.name, c.edges.map((e) => e.to)]));
  let maxHandoffMs = 0;
  for (const [name, deps] of needs) {
    const start = started.get(name);
    const ready = Math.max(...deps.map((d) => verified.get(d) ?? 0));
    if (start !== undefined && deps.length > 0) maxHandoffMs = Math.max(maxHandoffMs, start - ready);
  }
  // Walk back from the component that finished last, always to the dependency that was verified last.
  let current = [...verified.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  let handoffsMs = 0;
  let handoffs = 0;
  while (current !== undefined) {
    const deps = needs.get(current) ?? [];
    if (deps.length === 0) break;
    const last = deps.reduce((a, b) => ((verified.get(a) ?? 0) >= (verified.get(b) ?? 0) ? a : b));
    handoffsMs += (started.get(current) ?? 0) - (verified.get(last) ?? 0);
    handoffs += 1;
    current = last;
  }
  const firstStart = Math.min(...started.values());
  const lastVerified = Math.max(...verified.values());
  return {
    startupMs: firstStart - startedAt,
    handoffsMs,
    handoffs,
    maxHandoffMs,
    teardownMs: endedAt - lastVerified,
  };
}

/** Median latency of a server-side apply that changes nothing (the per-hand-off round trip). */
async function applyRoundTrip(admin: KubeCluster): Promise<number> {
  const namespace = `bench-rtt-${Math.random().toString(36).slice(2, 6)}`;
  const ns: KubeObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } };
  await admin.apply(ns, { fieldManager: 'stackwright', force: false, dryRun: false });
  const cm: KubeObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'rtt', namespace },
    data: { a: '1' },
  };
  const samples: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t = performance.now();
    await admin.apply(
      { ...cm, data: { a: String(i) } },
      { fieldManager: 'stackwright', force: false, dryRun: false },
    );
    samples.push(performance.now() - t);
  }
  await deleteNamespace(admin, namespace);
  return median(samples.slice(5));
}

/**
 * What the cluster itself needs per component beyond the readiness delay: deployment controller,
 * ReplicaSet, scheduler and kwok until the pod runs, and the status round back. Measured as
 * (time from first apply to verified) - delay for a single component, median of 3.
 */
async function controllerLatency(env: ClusterEnv, admin: KubeCluster): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 3; i++) {
    const namespace = `bench-cal-${i}-${Math.random().toString(36).slice(2, 6)}`;
    const graph = graphOf(chain(1, 1000), 'bench-cal', namespace);
    const port = await KubeCluster.connect({
      kubeconfig: env.kubeconfig,
      userAgent: 'stackwright-bench-cal',
    });
    try {
      const result = await deploy(graph, { cluster: port, preflight: 'off' });
      const c = result.rollout.components[0];
      samples.push((c.durations.totalMs ?? 0) - 1000);
    } finally {
      port.close();
    }
    await deleteNamespace(admin, namespace);
  }
  return median(samples);
}

async function deleteNamespace(admin: KubeCluster, name: string): Promise<void> {
  const ns: KubeObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
  await admin.delete(ns, { propagationPolicy: 'Background' });
  await waitUntilGone(admin, ns, AbortSignal.timeout(300_000));
}

interface ReportInput {
  readonly measurements: readonly Measurement[];
  readonly rttMs: number;
  readonly controllerMs: number;
  readonly version: string;
  readonly kubectlVersion: string;
  readonly totalMs: number;
  readonly quick: boolean;
}

function renderReport(input: ReportInput): string {
  const { rttMs, controllerMs } = input;
  const shapes = [...new Map(input.measurements.map((m) => [m.shape.name, m.shape])).values()];
  const s = (ms: number | undefined) => (ms === undefined ? '–' : `${(ms / 1000).toFixed(2)}`);
  const lines = [
    '| graph | components | objects | limit T\\* (s) | stackwright (s) | tool overhead (s) | of which startup / hand-offs / teardown (s) | CLI from process start (s) | CLI - T\\* / CLI - T\\*+cluster (s), target max(1 s, 5 %) | waves (s) | kubectl seq. (s) | Flux (s) | kapp (s) | requests per object (stackwright / waves / kubectl / Flux / kapp) | writes per object (stackwright / kubectl / Flux / kapp) |',
    '| --- | --: | --: | --: | --: | --: | --- | --: | --- | --: | --: | --: | --: | --- | --- |',
  ];
  for (const shape of shapes) {
    const get = (tool: Tool) =>
      input.measurements.find((m) => m.shape.name === shape.name && m.tool === tool);
    const sw = get('stackwright');
    const cli = get('stackwright-cli');
    const waves = get('waves');
    const kubectl = get('kubectl');
    const flux = get('flux');
    const kapp = get('kapp');
    const limit = criticalPathMs(shape, rttMs);
    // The limit plus what the cluster itself needs per component on the critical path (controllers,
    // scheduler, kwok): what no tool can go below on this cluster.
    const withCluster = criticalPathMs(shape, rttMs + controllerMs);
    const o = sw?.overhead;
    const toolMs = o ? o.startupMs + o.handoffsMs + o.teardownMs : undefined;
    const perObject = (m: Measurement | undefined, field: 'requests' | 'writes') =>
      m ? (m[field] / m.objects).toFixed(2) : '–';
    const flag = (m: Measurement | undefined) => (m && !m.ok ? ' (failed)' : '');
    const cells = [
      shape.name,
      String(shape.components.length),
      String(sw?.objects ?? '–'),
      s(limit),
      `${s(sw?.wallMs)}${flag(sw)}`,
      toolMs === undefined ? '–' : `${s(toolMs)} (${((toolMs / limit) * 100).toFixed(1)} % of T\\*)`,
      o
        ? `${s(o.startupMs)} / ${s(o.handoffsMs)} (${o.handoffs} hand-offs, max ${o.maxHandoffMs} ms) / ${s(o.teardownMs)}`
        : '–',
      `${s(cli?.wallMs)}${flag(cli)}`,
      cli
        ? `${s(cli.wallMs - limit)} / ${s(cli.wallMs - withCluster)}, target ${s(Math.max(1000, limit * 0.05))}`
        : '–',
      `${s(waves?.wallMs)}${flag(waves)}`,
      s(kubectl?.wallMs),
      `${s(flux?.wallMs)}${flag(flux)}`,
      `${s(kapp?.wallMs)}${flag(kapp)}`,
      [sw, waves, kubectl, flux, kapp].map((m) => perObject(m, 'requests')).join(' / '),
      [sw, kubectl, flux, kapp].map((m) => perObject(m, 'writes')).join(' / '),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  const c8 = input.measurements.filter((m) => m.tool === 'stackwright-c8');
  const extra = c8.map(
    (m) => `- ${m.shape.name} with the CLI default \`--concurrency 8\`: ${s(m.wallMs)} s.`,
  );
  return [
    `Kubernetes ${input.version}, kubectl ${input.kubectlVersion}, ${os.cpus().length} CPUs, Node ${process.version}; ` +
      `apply round trip ${rttMs.toFixed(1)} ms (median SSA); the cluster's own latency for one lone component ` +
      `(controllers, scheduler, kwok) ${(controllerMs / 1000).toFixed(2)} s beyond its readiness delay; ` +
      `benchmark wall time ${(input.totalMs / 60_000).toFixed(1)} min${input.quick ? ' (--quick)' : ''}.`,
    '',
    ...lines,
    '',
    ...extra,
    '',
  ].join('\n');
}

interface ClusterEnv {
  readonly kubeconfig: string;
  readonly kubectl: string;
  readonly auditLog?: string;
}

/** The test cluster's kubeconfig, kubectl and audit log, from `cluster.env` in the run directory (scripts/cluster/up.sh). */
function clusterEnv(): ClusterEnv {
  const runDir =
    process.env.STACKWRIGHT_CLUSTER_RUN ?? path.join(os.homedir(), '.cache', 'stackwright', 'run');
  const file = path.join(runDir, 'cluster.env');
  const vars: Record<string, string> = {};
  if (fs.existsSync(file)) {
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      const match = /^([A-Z_]+)=(.*)$/.exec(line.trim());
      if (match) vars[match[1]] = match[2];
    }
  }
  const kubeconfig = process.env.BENCH_KUBECONFIG ?? vars.KUBECONFIG;
  if (!kubeconfig) throw new Error(`no cluster: start one with \`npm run cluster:up\` (expected ${file})`);
  const kubectl = vars.STACKWRIGHT_CLUSTER_BIN
    ? path.join(vars.STACKWRIGHT_CLUSTER_BIN, 'kubectl')
    : 'kubectl';
  const auditLog =
    vars.STACKWRIGHT_CLUSTER_AUDIT_LOG && fs.existsSync(vars.STACKWRIGHT_CLUSTER_AUDIT_LOG)
      ? vars.STACKWRIGHT_CLUSTER_AUDIT_LOG
      : undefined;
  return { kubeconfig, kubectl, auditLog };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
