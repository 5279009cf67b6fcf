/**
 * Synthesis benchmark: time and memory to synthesise the reference cloud and clouds scaled to
 * N regions (N copies of `referenceCloud`, each its own Cloud and namespace, in one cdk8s App), and
 * in the same run cdk8s synthesising the very same objects as plain `ApiObject`s, so the SDK's
 * overhead is a ratio.
 *
 * Every measurement runs in a fresh Node process (`--expose-gc`), as `cdk8s synth` does, so no run
 * benefits from another's JIT warm-up or heap; the parent only orchestrates and reports medians.
 *
 *   node --require ./bin/ts-register.js bench/synth/run.ts [--runs 5] [--sizes 1,10,50,200]
 *   (or, compiled: npm run build && node dist-lib/bench/synth/run.js ...)
 *
 * Output: a Markdown report on stdout (see bench/synth/RESULTS.md).
 */
import { fork } from 'child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { cpus, tmpdir, totalmem } from 'os';
import { join } from 'path';
import { performance } from 'perf_hooks';
import { ApiObject, App, Chart } from 'cdk8s';
import { referenceCloud } from '../../stacks/reference-cloud';
import { median, option } from '../support/run-options';

type Mode = 'sdk' | 'sdk-apps' | 'plain';

/** One measured run, from a child process. */
interface Sample {
  readonly mode: Mode;
  readonly regions: number;
  readonly objects: number;
  /** Building the construct tree (SDK constructs, or `new ApiObject` for the plain run). */
  readonly constructMs: number;
  /** `app.synthYaml()`: validation, rendering every object, YAML. */
  readonly synthMs: number;
  readonly yamlBytes: number;
  /**
   * Heap still used after a full GC with the app alive, the YAML dropped: what the construct tree
   * costs (for the plain run, its ApiObjects and the JSON they hold).
   */
  readonly heapRetainedMiB: number;
  /** Resident set growth from the start of the measurement to the end of synthesis. */
  readonly rssGrowthMiB: number;
  /** CPU time (user + system) of build + synth: steadier than wall time on a loaded machine. */
  readonly cpuMs: number;
}

const MiB = 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// Child side: build, synthesise, measure, report.

function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect) collect();
}

/** N reference clouds in one app: `reference` alone for 1, else `region-1..N` in namespaces `openstack-<i>`. */
function sdkApp(regions: number): App {
  const app = new App();
  if (regions === 1) referenceCloud(app);
  else for (let i = 1; i <= regions; i++) referenceCloud(app, `region-${i}`, { namespace: `openstack-${i}` });
  return app;
}

/** The SDK's plain output for `regions`, one array of objects per chart (cloud). */
function sdkObjects(regions: number): unknown[][] {
  return sdkApp(regions).charts.map((chart) => chart.toJson());
}

/** The same objects as plain cdk8s ApiObjects, one Chart per cloud as in the SDK run. */
function plainApp(charts: readonly unknown[][]): App {
  const app = new App();
  charts.forEach((objects, c) => {
    const chart = new Chart(app, `chart-${c}`, { disableResourceNameHashes: true });
    objects.forEach(
      (object, i) => new ApiObject(chart, `o${i}`, object as ConstructorParameters<typeof ApiObject>[2]),
    );
  });
  return app;
}

/**
 * `sdk-apps` puts every region in an App of its own. cdk8s validates the whole App (and resolves its
 * dependencies) once per Chart it renders, so N clouds in one App cost O(N²) validation; separate
 * Apps show what the SDK itself costs per cloud.
 */
function measure(mode: Mode, regions: number, dumpFile: string): Sample {
  gc();
  // Before the plain run reads its objects: the JSON they hold is its share of the heap, as the
  // SDK's props are the SDK's.
  const before = process.memoryUsage();
  const input = mode === 'plain' ? (JSON.parse(readFileSync(dumpFile, 'utf8')) as unknown[][]) : [];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const apps =
    mode === 'sdk'
      ? [sdkApp(regions)]
      : mode === 'plain'
        ? [plainApp(input)]
        : Array.from({ length: regions }, () => sdkApp(1));
  const t1 = performance.now();
  // Only the size of the YAML is kept: the heap measured below is what the apps hold, not the output.
  const yamlBytes = apps.reduce((bytes, app) => bytes + Buffer.byteLength(app.synthYaml()), 0);
  const t2 = performance.now();
  const cpu = process.cpuUsage(cpu0);
  const afterSynth = process.memoryUsage();
  gc();
  const retained = process.memoryUsage();
  // What each chart writes, not the ApiObjects in its tree: a disabled component's objects stay in
  // the tree and are left out of the output. Counted after the measurements, outside them.
  const objects = apps.flatMap((app) => app.charts).reduce((n, chart) => n + chart.toJson().length, 0);
  return {
    mode,
    regions,
    objects,
    constructMs: t1 - t0,
    synthMs: t2 - t1,
    yamlBytes,
    heapRetainedMiB: (retained.heapUsed - before.heapUsed) / MiB,
    rssGrowthMiB: (afterSynth.rss - before.rss) / MiB,
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
}

function child(args: readonly string[]): void {
  const [command, regionsText, file] = args;
  const regions = Number(regionsText);
  if (command === 'dump') {
    const charts = sdkObjects(regions);
    writeFileSync(file, JSON.stringify(charts));
    process.send?.({ objects: charts.reduce((n, c) => n + c.length, 0) });
  } else {
    process.send?.(measure(command as Mode, regions, file));
  }
}

// ---------------------------------------------------------------------------------------------
// Parent side: orchestrate, aggregate, report.

function runChild<T>(args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const proc = fork(__filename, ['--child', ...args], {
      // Inherited flags keep `--require ./bin/ts-register.js` when the benchmark runs from source.
      execArgv: [...process.execArgv, '--expose-gc'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let message: T | undefined;
    proc.on('message', (m) => (message = m as T));
    proc.on('error', reject);
    proc.on('exit', (code) =>
      code === 0 && message !== undefined
        ? resolve(message)
        : reject(new Error(`bench child ${args.join(' ')} exited with ${code}`)),
    );
  });
}

interface Row {
  readonly regions: number;
  readonly objects: number;
  readonly sdk: Summary;
  readonly plain: Summary;
  /** The SDK with one App per region. */
  readonly apps: Summary;
}

interface Summary {
  readonly constructMs: number;
  readonly synthMs: number;
  readonly totalMs: number;
  readonly heapRetainedMiB: number;
  readonly rssGrowthMiB: number;
  readonly yamlBytes: number;
  readonly cpuMs: number;
  readonly totals: readonly number[];
}

function summarise(samples: readonly Sample[]): Summary {
  const totals = samples.map((s) => s.constructMs + s.synthMs);
  return {
    constructMs: median(samples.map((s) => s.constructMs)),
    synthMs: median(samples.map((s) => s.synthMs)),
    totalMs: median(totals),
    heapRetainedMiB: median(samples.map((s) => s.heapRetainedMiB)),
    rssGrowthMiB: median(samples.map((s) => s.rssGrowthMiB)),
    yamlBytes: samples[0].yamlBytes,
    cpuMs: median(samples.map((s) => s.cpuMs)),
    totals,
  };
}

const f0 = (n: number) => n.toFixed(0);
const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);

function report(rows: readonly Row[], runs: number): string {
  const cpu = cpus();
  const lines = [
    `Machine: ${cpu.length} CPUs (${cpu[0]?.model ?? 'unknown'}), ${f1(totalmem() / 1024 / MiB)} GiB RAM, Node ${process.version}, ` +
      `cdk8s ${(JSON.parse(readFileSync(require.resolve('cdk8s/package.json'), 'utf8')) as { version: string }).version}. Median of ${runs} runs per cell, each in a fresh process.`,
    '',
    '| regions | objects | SDK build ms | SDK synth ms | SDK total ms | SDK objects/s | SDK µs/object | plain build ms | plain synth ms | plain total ms | plain objects/s | SDK / plain | SDK / plain (CPU) | SDK heap retained MiB | plain heap retained MiB | SDK KiB/object | plain KiB/object | SDK RSS growth MiB | YAML MiB |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map((r) =>
      [
        r.regions,
        r.objects,
        f0(r.sdk.constructMs),
        f0(r.sdk.synthMs),
        f0(r.sdk.totalMs),
        f0((r.objects / r.sdk.totalMs) * 1000),
        f0((r.sdk.totalMs * 1000) / r.objects),
        f0(r.plain.constructMs),
        f0(r.plain.synthMs),
        f0(r.plain.totalMs),
        f0((r.objects / r.plain.totalMs) * 1000),
        f2(r.sdk.totalMs / r.plain.totalMs),
        f2(r.sdk.cpuMs / r.plain.cpuMs),
        f1(r.sdk.heapRetainedMiB),
        f1(r.plain.heapRetainedMiB),
        f1((r.sdk.heapRetainedMiB * 1024) / r.objects),
        f1((r.plain.heapRetainedMiB * 1024) / r.objects),
        f1(r.sdk.rssGrowthMiB),
        f2(r.sdk.yamlBytes / MiB),
      ]
        .join(' | ')
        .replace(/^/, '| ')
        .replace(/$/, ' |'),
    ),
    '',
    'Growth. A cold process pays a fixed cost (module loading is excluded, JIT warm-up is not), so the',
    'average per object falls with size; linearity shows in the marginal cost, the extra time per extra',
    'object from one size to the next, which stays flat when synthesis is linear:',
    '',
    '| regions | objects | SDK µs/object (average) | SDK marginal µs/object | plain µs/object (average) | plain marginal µs/object |',
    '|---:|---:|---:|---:|---:|---:|',
    ...rows.map((r, i) => {
      const previous = i > 0 ? rows[i - 1] : undefined;
      const marginal = (now: Summary, before: Summary | undefined) =>
        previous && before
          ? f1(((now.totalMs - before.totalMs) * 1000) / (r.objects - previous.objects))
          : '—';
      return (
        `| ${r.regions} | ${r.objects} | ${f1((r.sdk.totalMs * 1000) / r.objects)} | ${marginal(r.sdk, previous?.sdk)} ` +
        `| ${f1((r.plain.totalMs * 1000) / r.objects)} | ${marginal(r.plain, previous?.plain)} |`
      );
    }),
    '',
    'The SDK with every region in an App of its own (cdk8s validates a whole App once per Chart it renders,',
    'so N clouds in one App validate N+1 times; separate Apps show the cost of the SDK itself):',
    '',
    '| regions | objects | SDK build ms | SDK synth ms | SDK total ms | objects/s | µs/object (average) | marginal µs/object | vs plain (one App) |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map((r, i) => {
      const previous = i > 0 ? rows[i - 1] : undefined;
      const marginal = previous
        ? f1(((r.apps.totalMs - previous.apps.totalMs) * 1000) / (r.objects - previous.objects))
        : '—';
      return (
        `| ${r.regions} | ${r.objects} | ${f0(r.apps.constructMs)} | ${f0(r.apps.synthMs)} | ${f0(r.apps.totalMs)} | ` +
        `${f0((r.objects / r.apps.totalMs) * 1000)} | ${f1((r.apps.totalMs * 1000) / r.objects)} | ${marginal} | ${f2(r.apps.totalMs / r.plain.totalMs)} |`
      );
    }),
    '',
    'Raw totals (ms, build + synth, in run order):',
    '',
    ...rows.map(
      (r) =>
        `- ${r.regions} region(s): SDK ${r.sdk.totals.map(f1).join(', ')}; plain ${r.plain.totals.map(f1).join(', ')}; ` +
        `SDK one App per region ${r.apps.totals.map(f1).join(', ')}`,
    ),
    '',
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const runs = Number(option('runs', '5'));
  const sizes = option('sizes', '1,10,50,200').split(',').map(Number);
  const dir = mkdtempSync(join(tmpdir(), 'stackwright-bench-'));
  const rows: Row[] = [];
  try {
    for (const regions of sizes) {
      const file = join(dir, `objects-${regions}.json`);
      const { objects } = await runChild<{ objects: number }>(['dump', String(regions), file]);
      const samples: Sample[] = [];
      // Interleaved, so drift on the machine affects both sides alike.
      for (let run = 0; run < runs; run++) {
        samples.push(await runChild<Sample>(['sdk', String(regions), file]));
        samples.push(await runChild<Sample>(['plain', String(regions), file]));
        samples.push(await runChild<Sample>(['sdk-apps', String(regions), file]));
        process.stderr.write(`regions=${regions} run ${run + 1}/${runs} done\n`);
      }
      const sdk = samples.filter((s) => s.mode === 'sdk');
      const plain = samples.filter((s) => s.mode === 'plain');
      const apps = samples.filter((s) => s.mode === 'sdk-apps');
      for (const s of samples) {
        if (s.objects !== objects)
          throw new Error(`${s.mode} run synthesised ${s.objects} objects, expected ${objects}`);
      }
      if (sdk[0].yamlBytes !== plain[0].yamlBytes) {
        process.stderr.write(
          `note: YAML sizes differ (SDK ${sdk[0].yamlBytes} B, plain ${plain[0].yamlBytes} B)\n`,
        );
      }
      rows.push({ regions, objects, sdk: summarise(sdk), plain: summarise(plain), apps: summarise(apps) });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write(report(rows, runs));
}

if (process.argv[2] === '--child') {
  child(process.argv.slice(3));
} else {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
