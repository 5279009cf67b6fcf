import { spawnSync } from 'child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { BLOCKS_DIR, codeBlocks, ROOT } from './code-blocks';

/**
 * Docs that cannot rot: every TypeScript block of README.md and docs/*.md is a file in
 * test/docs/blocks/, which `npm test` type-checks against the package's sources (tsc, before jest),
 * and the blocks marked `<!-- check: run -->` are complete programs, run here.
 */
describe('the TypeScript blocks of README.md and docs/', () => {
  const blocks = codeBlocks();

  test('each is written to test/docs/blocks/ as it stands in the doc (UPDATE_DOCS=1 rewrites them)', () => {
    const expected = Object.fromEntries(blocks.map((b) => [b.file, b.content]));
    if (process.env.UPDATE_DOCS === '1') {
      rmSync(BLOCKS_DIR, { recursive: true, force: true });
      mkdirSync(BLOCKS_DIR, { recursive: true });
      for (const [file, content] of Object.entries(expected)) writeFileSync(join(BLOCKS_DIR, file), content);
    }
    const written = existsSync(BLOCKS_DIR) ? readdirSync(BLOCKS_DIR).sort() : [];
    const actual = Object.fromEntries(written.map((f) => [f, readFileSync(join(BLOCKS_DIR, f), 'utf8')]));
    expect(actual).toEqual(expected);
  });

  test('the README opens with a complete program that runs', () => {
    expect(blocks.find((b) => b.source.startsWith('README.md'))?.run).toBe(true);
  });

  const programs = blocks.filter((b) => b.run);
  test.each(programs.map((b) => [b.source, b.file]))('%s runs (%s)', (_source, file) => {
    // GIVEN an empty directory to run in
    const cwd = mkdtempSync(join(tmpdir(), 'stackwright-doc-'));

    // WHEN the program runs from source, as `npx cdk8s synth` runs an app
    const run = spawnSync(
      process.execPath,
      ['--require', join(ROOT, 'bin', 'ts-register.js'), join(BLOCKS_DIR, file)],
      { cwd, encoding: 'utf8', timeout: 120_000 },
    );

    // THEN it succeeds, and what it synthesised is there
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    if (existsSync(join(cwd, 'dist'))) {
      expect(readdirSync(join(cwd, 'dist')).some((f) => f.endsWith('.k8s.yaml'))).toBe(true);
    }
  });
});
