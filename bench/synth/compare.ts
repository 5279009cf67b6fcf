/**
 * Interleaved A/B of synthesis CPU: this tree's SDK, another checkout's SDK (`--before DIR`, e.g. a
 * `git worktree` of the commit to compare with) and plain cdk8s on the same objects, alternating
 * in fresh processes so machine drift hits all three alike. Each measurement is bench/synth/run.ts'
 * own child (build + `app.synthYaml()`, CPU = user + system of that process), run from its tree.
 *
 *   node --require ./bin/ts-register.js bench/synth/compare.ts --before ../main --runs 5 --sizes 1,10,50
 *
 * Output: a Markdown table on stdout (medians, then every sample in run order).
 */
import { fork } from 'child_process';
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join, resolve } from 'path';
import { median, option } from '../support/run-options';

interface Sample {
  readonly objects: number;
  readonly cpuMs: number;
  readonly constructMs: number;
  readonly synthMs: number;
  readonly yamlBytes: number;
}

/** Runs bench/synth/run.ts' child of `tree` with `args` and returns what it reports. */
function runChild<T>(tree: string, args: readonly string[]): Promise<T> {
  return new Promise((done, fail) => {
    const proc = fork(join(tree, 'bench/synth/run.ts'), ['--child', ...args], {
      cwd: tree,
      execArgv: ['--require', join(tree, 'bin/ts-register.js'), '--expose-gc'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let message: T | undefined;
    proc.on('message', (m) => (message = m as T));
    proc.on('error', fail);
    proc.on('exit', (code) =>
      code === 0 && message !== undefined
        ? done(message)
        : fail(new Error(`${tree}: bench child ${args.join(' ')} exited with ${code}`)),
    );
  });
}

async function main(): Promise<void> {
  const after = resolve(__dirname, '../..');
  const before = resolve(option('before', ''));
  if (!option('before', '')) throw new Error('pass --before DIR: the checkout to compare with');
  const runs = Number(option('runs', '5'));
  const sizes = option('sizes', '1,10,50').split(',').map(Number);
  const dir = mkdtempSync(join(tmpdir(), 'stackwright-bench-ab-'));
  const lines = [
    '| regions | objects | runs | before CPU ms | after CPU ms | plain CPU ms | before / plain | after / plain | after / before |',
    '| ------: | ------: | ---: | ------------: | -----------: | -----------: | -------------: | ------------: | -------------: |',
  ];
  const raw: string[] = [];
  try {
    for (const regions of sizes) {
      const file = join(dir, `objects-${regions}.json`);
      await runChild(after, ['dump', String(regions), file]);
      const samples = { before: [] as Sample[], after: [] as Sample[], plain: [] as Sample[] };
      for (let run = 0; run < runs; run++) {
        samples.before.push(await runChild<Sample>(before, ['sdk', String(regions), file]));
        samples.after.push(await runChild<Sample>(after, ['sdk', String(regions), file]));
        samples.plain.push(await runChild<Sample>(after, ['plain', String(regions), file]));
        process.stderr.write(`regions=${regions} run ${run + 1}/${runs} done\n`);
      }
      const [b, a, p] = [samples.before, samples.after, samples.plain].map((s) =>
        median(s.map((x) => x.cpuMs)),
      );
      const objects = samples.after[0].objects;
      if (samples.before[0].yamlBytes !== samples.after[0].yamlBytes)
        process.stderr.write(
          `note: YAML sizes differ at ${regions} regions (before ${samples.before[0].yamlBytes} B, after ${samples.after[0].yamlBytes} B)\n`,
        );
      lines.push(
        `| ${regions} | ${objects} | ${runs} | ${b.toFixed(0)} | ${a.toFixed(0)} | ${p.toFixed(0)} | ${(b / p).toFixed(2)} | ${(a / p).toFixed(2)} | ${(a / b).toFixed(2)} |`,
      );
      const list = (s: readonly Sample[]) => s.map((x) => x.cpuMs.toFixed(0)).join(', ');
      raw.push(
        `- ${regions} regions: before ${list(samples.before)}; after ${list(samples.after)}; plain ${list(samples.plain)}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write(`${lines.join('\n')}\n\nCPU samples (ms) in run order:\n\n${raw.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
