/**
 * Start-up benchmark: what a user waits for before any real work happens.
 *
 * - edit -> synth: `npx cdk8s synth` of the reference cloud on the TypeScript sources (cdk8s.yaml's
 *   app: bin/ts-register.js) with an empty transpile cache, right after editing one stack file,
 *   and with nothing changed; against the same `cdk8s synth` running the precompiled app.
 * - CLI `--help`: `node bin/stackwright.js` (the bundle), `npx stackwright`, and the unbundled
 *   tsc output (`dist-lib/lib/cli/main.js`).
 * - time to first API request: `stackwright deploy dist/` against a stand-in API server on
 *   127.0.0.1 that records when the first request arrives (the CLI's first request is `GET
 *   /version`; the stand-in then answers 503 so the CLI stops). Process start to that request is
 *   what the CLI costs before the rollout clock starts: Node start-up, loading, reading and
 *   validating the manifests, the kubeconfig.
 *
 * Runs are interleaved (every variant once per round) so machine load hits all alike; cells are
 * medians. CPU time (user + system of the child and its children) comes from GNU time when
 * installed, which is steadier than wall time on a loaded machine.
 *
 * - no-op re-deploy (with `--kubeconfig`): the reference cloud deployed again, unchanged, on a live
 *   cluster: whole process wall time, via node, npx and the unbundled tsc output; and beside them,
 *   on the same cluster in the same rounds, kapp's no-op: `kapp deploy` of a copy of the reference
 *   cloud in a namespace of its own (its kapp layout, `exportKapp`), again unchanged (when
 *   scripts/gitops/build.sh has built kapp).
 *
 *   npm run build && node dist-lib/bench/startup/run.js [--runs 5] [--compare <other dist-lib>] [--kubeconfig <file>]
 *
 * (from source: `node --require ./bin/ts-register.js bench/startup/run.ts`; needs `npm run build`
 * either way for the bundle and the precompiled variants.)
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import { AddressInfo } from 'net';
import * as os from 'os';
import * as path from 'path';
import { exportKapp, writeExportTree } from '../../lib/export';
import { graphFromManifests, loadManifests } from '../../lib/graph';
import { gitOpsBinaries } from '../support/gitops/gitops-binaries';
import { kappDeployArgs } from '../support/gitops/kapp-deploy';
import { median, option } from '../support/run-options';

const root = path.join(__dirname, '..', '..').replace(/[\\/]dist-lib$/, '');
const GNU_TIME = '/usr/bin/time';
const hasGnuTime = fs.existsSync(GNU_TIME);

interface Sample {
  readonly wallMs: number;
  /** User + system CPU of the process tree, when GNU time is installed. */
  readonly cpuMs?: number;
}

interface RunOptions {
  readonly env?: Readonly<Record<string, string>>;
  /** Resolves with the time that should count as the end instead of the process exit. */
  readonly until?: Promise<number>;
}

/** Runs `command` through the shell and measures it from spawn to exit (or to `until`). */
function measure(command: string, options: RunOptions = {}): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const cpuFile = path.join(os.tmpdir(), `stackwright-bench-cpu-${process.pid}`);
    const [file, args]: [string, string[]] = hasGnuTime
      ? [GNU_TIME, ['-f', '%U %S', '-o', cpuFile, '/bin/sh', '-c', command]]
      : ['/bin/sh', ['-c', command]];
    const started = performance.now();
    const child = spawn(file, args, {
      cwd: root,
      env: { ...process.env, CDK8S_CHECK_UPGRADE: 'false', ...options.env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', async (code) => {
      const exited = performance.now();
      if (code !== 0 && !options.until) {
        reject(new Error(`\`${command}\` exited with ${code}: ${stderr.slice(-2000)}`));
        return;
      }
      let end = exited;
      if (options.until) {
        // A CLI that exits without ever sending a request would otherwise hang the benchmark.
        const timeout = new Promise<never>((_, fail) =>
          setTimeout(() => fail(new Error(`\`${command}\` sent no request: ${stderr.slice(-2000)}`)), 5000),
        );
        try {
          end = await Promise.race([options.until, timeout]);
        } catch (error) {
          reject(error);
          return;
        }
      }
      let cpuMs: number | undefined;
      if (hasGnuTime) {
        // GNU time writes "Command exited with non-zero status N" first when the command failed.
        const last = fs.readFileSync(cpuFile, 'utf8').trim().split('\n').slice(-1)[0];
        const [user, system] = last.split(' ').map(Number);
        cpuMs = (user + system) * 1000;
      }
      resolve({ wallMs: end - started, cpuMs });
    });
  });
}

/**
 * A stand-in API server: records when each request arrives, answers `/version`, then 403 (credentials
 * refused), which ends the CLI at once with exit 3. (A 503 would now be waited out as a lost API
 * server, `--api-loss-timeout`.)
 */
class StandInApiServer {
  private readonly server = http.createServer((req, res) => {
    const now = performance.now();
    if (this.waiting) {
      this.waiting(now);
      this.waiting = undefined;
    }
    if (req.url === '/version') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"gitVersion":"v0.0.0-bench"}');
    } else res.writeHead(403).end();
  });
  private waiting?: (at: number) => void;
  kubeconfig = '';

  async start(dir: string): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.kubeconfig = path.join(dir, 'kubeconfig');
    fs.writeFileSync(
      this.kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters: [{name: bench, cluster: {server: "http://127.0.0.1:' +
          port +
          '", insecure-skip-tls-verify: true}}]',
        'users: [{name: bench, user: {token: bench}}]',
        'contexts: [{name: bench, context: {cluster: bench, user: bench}}]',
        'current-context: bench',
        '',
      ].join('\n'),
    );
  }

  /** Resolves with the arrival time of the next request. */
  nextRequest(): Promise<number> {
    return new Promise((resolve) => (this.waiting = resolve));
  }

  stop(): void {
    this.server.close();
  }
}

interface Variant {
  readonly group: string;
  readonly name: string;
  readonly command: string;
  /** Runs before each measurement, unmeasured. */
  readonly prepare?: () => void;
  /** Runs once before the warm-up, unmeasured. */
  readonly prepareOnce?: () => Promise<void>;
  readonly firstRequest?: boolean;
  /** The variant this one is compared with (same group). */
  readonly baseline?: string;
}

async function main(): Promise<void> {
  const runs = Number(option('runs', '5'));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-startup-bench-'));
  const cache = path.join(work, 'transpile-cache');
  const stackFile = path.join(root, 'stacks', 'reference-cloud.ts');
  const original = fs.readFileSync(stackFile, 'utf8');
  let edits = 0;
  const api = new StandInApiServer();
  await api.start(work);
  const manifests = path.join(work, 'dist');
  const kappLayout = path.join(work, 'kapp');
  const bundle = 'node bin/stackwright.js';
  const unbundled = `node -e "require('./dist-lib/lib/cli/main').main(process.argv.slice(1)).then((c) => (process.exitCode = c))" --`;

  const variants: Variant[] = [
    {
      group: 'edit -> synth',
      name: 'precompiled app: `npx cdk8s synth --app "node dist-lib/stacks/main.js"`',
      command: `npx cdk8s synth --app "node dist-lib/stacks/main.js" --output ${manifests}`,
    },
    {
      group: 'edit -> synth',
      name: 'TypeScript app, empty transpile cache (fresh clone): `npx cdk8s synth`',
      command: `npx cdk8s synth --output ${manifests}`,
      prepare: () => fs.rmSync(cache, { recursive: true, force: true }),
      baseline: 'precompiled',
    },
    {
      group: 'edit -> synth',
      name: 'TypeScript app, one stack file edited: `npx cdk8s synth`',
      command: `npx cdk8s synth --output ${manifests}`,
      // A changed comment changes the file's hash: it is transpiled again, as after a real edit.
      prepare: () => fs.writeFileSync(stackFile, `${original}// bench edit ${++edits}\n`),
      baseline: 'precompiled',
    },
    {
      group: 'edit -> synth',
      name: 'TypeScript app, nothing changed: `npx cdk8s synth`',
      command: `npx cdk8s synth --output ${manifests}`,
      baseline: 'precompiled',
    },
    { group: 'CLI --help', name: '`node bin/stackwright.js --help` (bundle)', command: `${bundle} --help` },
    {
      group: 'CLI --help',
      name: '`npx stackwright --help` (bundle)',
      command: 'npx --no-install stackwright --help',
    },
    { group: 'CLI --help', name: 'unbundled tsc output, `--help`', command: `${unbundled} --help` },
    {
      group: 'time to first API request',
      name: '`node bin/stackwright.js deploy` (bundle)',
      command: `${bundle} deploy ${manifests} --kubeconfig ${api.kubeconfig}`,
      firstRequest: true,
    },
    {
      group: 'time to first API request',
      name: '`npx stackwright deploy` (bundle)',
      command: `npx --no-install stackwright deploy ${manifests} --kubeconfig ${api.kubeconfig}`,
      firstRequest: true,
    },
    {
      group: 'time to first API request',
      name: 'unbundled tsc output, `deploy`',
      command: `${unbundled} deploy ${manifests} --kubeconfig ${api.kubeconfig}`,
      firstRequest: true,
    },
  ];

  // `--compare <dir>`: the same CLI measurements for another build's dist-lib (e.g. a copy of the
  // one before a change), so before and after are measured side by side in one run.
  const compare = option('compare', '');
  if (compare) {
    const other = `node -e "require('${path.resolve(compare)}/lib/cli/main').main(process.argv.slice(1)).then((c) => (process.exitCode = c))" --`;
    variants.push(
      { group: 'CLI --help', name: `${compare}: \`--help\``, command: `${other} --help` },
      {
        group: 'time to first API request',
        name: `${compare}: \`deploy\``,
        command: `${other} deploy ${manifests} --kubeconfig ${api.kubeconfig}`,
        firstRequest: true,
      },
    );
  }
  // `--kubeconfig <file>`: a live cluster (e.g. `npm run cluster:up`) for the no-op re-deploy of
  // the reference cloud, whole process wall time. The warm-up round deploys it for real first.
  const cluster = option('kubeconfig', '');
  if (cluster) {
    const deploy = (cli: string) => `${cli} deploy ${manifests} --kubeconfig ${path.resolve(cluster)}`;
    variants.push(
      {
        group: 'no-op re-deploy',
        name: '`node bin/stackwright.js deploy` (bundle)',
        command: deploy(bundle),
      },
      {
        group: 'no-op re-deploy',
        name: '`npx stackwright deploy` (bundle)',
        command: deploy('npx --no-install stackwright'),
      },
      { group: 'no-op re-deploy', name: 'unbundled tsc output, `deploy`', command: deploy(unbundled) },
    );
    const kapp = kappBinary();
    if (kapp) {
      variants.push({
        group: 'no-op re-deploy',
        name: '`kapp deploy` of the same cloud (its own copy and namespace), unchanged',
        // kapp's defaults (concurrency, wait interval)
        command: [kapp, ...kappDeployArgs(KAPP_CLOUD.id, kappLayout, path.resolve(cluster))].join(' '),
        prepareOnce: () => writeKappLayout(kappLayout),
      });
    }
    if (compare)
      variants.push({
        group: 'no-op re-deploy',
        name: `${compare}: \`deploy\``,
        command: deploy(
          `node -e "require('${path.resolve(compare)}/lib/cli/main').main(process.argv.slice(1)).then((c) => (process.exitCode = c))" --`,
        ),
      });
  }
  // `--only <group,...>`: measure only these groups (e.g. `--only "no-op re-deploy"`).
  const only = option('only', '');
  const selected = only ? variants.filter((v) => only.split(',').includes(v.group)) : variants;
  const samples = new Map<Variant, Sample[]>(selected.map((v) => [v, []]));
  try {
    // The manifests every deploy reads, then a warm-up of every command (disk cache, npx's cache).
    await measure(`node --require ./bin/ts-register.js stacks/main.ts`, {
      env: { STACKWRIGHT_TRANSPILE_CACHE: cache, CDK8S_OUTDIR: manifests },
    });
    for (const variant of selected) await variant.prepareOnce?.();
    for (const variant of selected) {
      variant.prepare?.();
      await measure(variant.command, {
        env: { STACKWRIGHT_TRANSPILE_CACHE: cache },
        until: variant.firstRequest ? api.nextRequest() : undefined,
      });
    }
    for (let run = 0; run < runs; run++) {
      for (const [variant, list] of samples) {
        variant.prepare?.();
        list.push(
          await measure(variant.command, {
            env: { STACKWRIGHT_TRANSPILE_CACHE: cache },
            until: variant.firstRequest ? api.nextRequest() : undefined,
          }),
        );
      }
      process.stderr.write(`round ${run + 1}/${runs} done\n`);
    }
  } finally {
    fs.writeFileSync(stackFile, original);
    api.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
  process.stdout.write(report(selected, samples, runs));
}

/** kapp as scripts/gitops/build.sh built it, or undefined (with a note) when it has not. */
function kappBinary(): string | undefined {
  try {
    return gitOpsBinaries().kapp;
  } catch (error) {
    process.stderr.write(`no kapp row: ${error instanceof Error ? error.message : String(error)}\n`);
    return undefined;
  }
}

/** The cloud kapp deploys: the reference cloud under another id and namespace, so the two never share an object. */
const KAPP_CLOUD = { id: 'kapp-noop', namespace: 'openstack-kapp' };

/** Synthesises kapp's copy of the reference cloud and writes its kapp layout (`exportKapp`) to `dir`. */
async function writeKappLayout(dir: string): Promise<void> {
  const synthesised = path.join(dir, 'manifests');
  const program =
    "const { App } = require('cdk8s'); const { referenceCloud } = require('./stacks/reference-cloud');" +
    ` const app = new App({ outdir: ${JSON.stringify(synthesised)} });` +
    ` referenceCloud(app, '${KAPP_CLOUD.id}', { namespace: '${KAPP_CLOUD.namespace}' }); app.synth();`;
  await measure(`node --require ./bin/ts-register.js -e ${JSON.stringify(program)}`);
  writeExportTree(exportKapp(graphFromManifests(loadManifests(synthesised))), dir);
}

function report(variants: readonly Variant[], samples: Map<Variant, Sample[]>, runs: number): string {
  const f2 = (ms: number) => (ms / 1000).toFixed(2);
  const cell = (v: Variant) => {
    const s = samples.get(v) ?? [];
    const cpus = s.flatMap((x) => (x.cpuMs === undefined ? [] : [x.cpuMs]));
    return {
      wall: median(s.map((x) => x.wallMs)),
      cpu: cpus.length > 0 ? median(cpus) : undefined,
      raw: s.map((x) => f2(x.wallMs)).join(', '),
    };
  };
  const lines = [
    `Node ${process.version}, ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(
        ' / ',
      )} (1/5/15 min) at the end. Median of ${runs} interleaved runs; CPU = user + system of the process tree${hasGnuTime ? '' : ' (GNU time not installed: not measured)'}.`,
    '',
    '| what | variant | wall (s) | CPU (s), whole process | vs baseline (wall / CPU) | wall per run (s) |',
    '|---|---|---:|---:|---:|---|',
  ];
  for (const v of variants) {
    const c = cell(v);
    const base = variants.find((b) => b.group === v.group && v.baseline && b.name.startsWith(v.baseline));
    const b = base && cell(base);
    const ratio = b
      ? `${(c.wall / b.wall).toFixed(2)} / ${c.cpu !== undefined && b.cpu !== undefined ? (c.cpu / b.cpu).toFixed(2) : '–'}`
      : '';
    lines.push(
      `| ${v.group} | ${v.name} | ${f2(c.wall)} | ${c.cpu !== undefined ? f2(c.cpu) : '–'} | ${ratio} | ${c.raw} |`,
    );
  }
  return lines.join('\n') + '\n';
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
