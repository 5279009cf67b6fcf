import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import fc from 'fast-check';
import { CliWorker } from './cli-runner';
import { crashInOutput } from './crash';
import { describeTree, ManifestTree, manifestTree, writeTree } from './manifest-trees';
import { CASE_BOUND_MS, FuzzTally, fuzzParameters } from './settings';

/** Every command that reads manifests, with the options it needs (`--out` for exports). */
const COMMANDS: readonly { readonly name: string; readonly args: (out: string) => string[] }[] = [
  { name: 'graph', args: () => ['graph', 'manifests', '--format', 'json'] },
  { name: 'plan', args: () => ['plan', 'manifests'] },
  { name: 'deploy', args: () => ['deploy', 'manifests'] },
  { name: 'deploy --prune', args: () => ['deploy', 'manifests', '--prune'] },
  { name: 'verify', args: () => ['verify', 'manifests'] },
  { name: 'status', args: () => ['status', 'manifests'] },
  { name: 'destroy', args: () => ['destroy', 'manifests', '--yes'] },
  {
    name: 'export flux',
    args: (out) => ['export', 'flux', 'manifests', '--out', out, '--repo-path', 'clusters/prod'],
  },
  { name: 'export kapp', args: (out) => ['export', 'kapp', 'manifests', '--out', out] },
  {
    name: 'export argocd',
    args: (out) => [
      'export',
      'argocd',
      'manifests',
      '--out',
      out,
      '--repo-path',
      'clusters/prod',
      '--repo-url',
      'https://git.example.com/p.git',
    ],
  },
  { name: 'rbac', args: () => ['rbac', 'manifests'] },
];

/** Commands that never connect: they may succeed; the others fail at the (absent) cluster at best. */
const OFFLINE = new Set(['graph', 'export flux', 'export kapp', 'export argocd', 'rbac']);

/** Every file and link under `dir` with a hash of its content (links by target, not followed). */
function snapshot(dir: string, skip: string): Record<string, string> {
  const result: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of fs.readdirSync(at)) {
      const entry = path.join(at, name);
      if (entry === skip) continue;
      const stat = fs.lstatSync(entry);
      if (stat.isSymbolicLink()) result[entry] = `link -> ${fs.readlinkSync(entry)}`;
      else if (stat.isDirectory()) {
        result[entry] = 'dir';
        walk(entry);
      } else if (stat.isFile())
        result[entry] = createHash('sha256').update(fs.readFileSync(entry)).digest('hex');
      else result[entry] = 'special';
    }
  };
  walk(dir);
  return result;
}

const worker = new CliWorker();
const tally = new FuzzTally();
afterAll(async () => {
  console.log(tally.report('CLI'));
  await worker.stop();
});

// GIVEN a manifests directory made hostile (objects, YAML text, entries of the tree)
// WHEN a command that reads manifests runs on it (in a worker thread, against no cluster)
// THEN within the bound it exits 0 (a command that never connects), 2 naming the manifests or the
//      output folder before any connection, or 3 having found no cluster after accepting the
//      input; no crash is printed; nothing outside the export's --out is created, changed or deleted
describe.each(COMMANDS.map((c) => [c.name, c] as const))('fuzz: stackwright %s', (name, command) => {
  test('hostile manifests are refused with the path, before connecting, or accepted', async () => {
    await fc.assert(
      fc.asyncProperty(manifestTree, async (tree: ManifestTree) => {
        const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-fuzz-cli-'));
        try {
          const layout = writeTree(tree, root);
          const exporting = name.startsWith('export');
          const before = snapshot(root, exporting ? layout.out : '');
          const outcome = await worker.run(command.args(layout.out), root, CASE_BOUND_MS);
          const input = `${name} on ${describeTree(tree)}`;
          if (outcome.kind === 'hung') throw new Error(`${input}: no answer within ${outcome.ms} ms`);
          if (outcome.kind === 'died') throw new Error(`${input}: the CLI died: ${outcome.error}`);
          const { code, stderr, opened } = outcome;
          const crash = crashInOutput(stderr);
          if (crash) throw new Error(`${input}: printed a crash: ${crash}`);
          const after = snapshot(root, exporting ? layout.out : '');
          expect(after).toEqual(before);
          if (code === 2) {
            if (opened > 0) throw new Error(`${input}: refused after connecting: ${stderr}`);
            if (!/manifests|export-out/.test(stderr))
              throw new Error(`${input}: refused without naming the file: ${stderr}`);
            tally.count('refused');
          } else if (code === 3 && !OFFLINE.has(name)) {
            if (opened !== 1 || !stderr.includes('no cluster here'))
              throw new Error(`${input}: exit 3 but: ${stderr}`);
            tally.count('accepted');
          } else if (code === 0 && OFFLINE.has(name)) {
            tally.count('accepted');
          } else throw new Error(`${input}: exit ${code}: ${stderr}`);
        } finally {
          fs.rmSync(root, { recursive: true, force: true });
        }
      }),
      fuzzParameters(25),
    );
  }, 600_000);
});
