import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parse } from 'yaml';
import { runCli } from '../../lib/cli/program';
import { ExitCode } from '../../lib/cli/exit-codes';
import { component, configMap, deployment, job, namespace } from '../runtime/support/manifests';
import { manifestDir, testIo } from './support';

// Imported outside any test's timeout: ts-jest compiles the exporters on first use.
beforeAll(() => import('../../lib/cli/commands/export'), 120_000);

/** mariadb <- keystone-db-sync (Job) <- keystone-api. */
const manifests = () =>
  manifestDir([
    namespace(),
    ...component('mariadb', {}, configMap('mariadb-config'), deployment('mariadb')),
    ...component('keystone-db-sync', { needs: { mariadb: 'ready' } }, job('keystone-db-sync')),
    ...component('keystone-api', { needs: { 'keystone-db-sync': 'completed' } }, deployment('keystone-api')),
  ]);

/** A fresh Git work tree (only `.git` matters) to export into. */
function gitRepo(): string {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-repo-'));
  fs.mkdirSync(path.join(repo, '.git'));
  return repo;
}

describe('stackwright export', () => {
  test('flux: writes the layout, with paths relative to the Git repository holding --out', async () => {
    // GIVEN
    const repo = gitRepo();
    const io = testIo({ cwd: repo });

    // WHEN
    const code = await runCli(['export', 'flux', manifests(), '--out', 'clusters/prod'], io);

    // THEN
    expect(code).toBe(ExitCode.OK);
    const root = parse(fs.readFileSync(path.join(repo, 'clusters/prod/root-kustomization.yaml'), 'utf8'));
    expect(root.spec.path).toBe('./clusters/prod/flux');
    const api = parse(fs.readFileSync(path.join(repo, 'clusters/prod/flux/keystone-api.yaml'), 'utf8'));
    expect(api.spec.dependsOn).toEqual([{ name: 'test-keystone-db-sync' }]);
    expect(io.stdout.text).toContain('kubectl apply -f clusters/prod/root-kustomization.yaml');
    expect(io.opened).toBe(0);
  });

  test('a later export removes the files of units that are gone', async () => {
    // GIVEN an earlier export with a unit that is no longer in the manifests
    const repo = gitRepo();
    const stale = path.join(repo, 'out/flux/old-unit.yaml');
    fs.mkdirSync(path.dirname(stale), { recursive: true });
    fs.writeFileSync(stale, 'kind: Kustomization\n');

    // WHEN
    expect(await runCli(['export', 'kapp', manifests(), '--out', 'out'], testIo({ cwd: repo }))).toBe(
      ExitCode.OK,
    );
    expect(await runCli(['export', 'flux', manifests(), '--out', 'out'], testIo({ cwd: repo }))).toBe(
      ExitCode.OK,
    );

    // THEN the kapp files stay (another layout), the stale Flux unit is gone
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.existsSync(path.join(repo, 'out/flux/keystone-api.yaml'))).toBe(true);
    expect(fs.existsSync(path.join(repo, 'out/kapp/keystone/keystone-api.yaml'))).toBe(true);
  });

  test.each([
    [
      ['export', 'helm', '--out', 'x'],
      /error: command-argument value 'helm' is invalid for argument 'engine'/,
    ],
    [['export', 'flux'], /export flux needs --out <dir>/],
    [['export', 'argocd', '--out', 'x', '--repo-path', 'x'], /export argocd needs --repo-url <url>/],
    [
      ['export', 'flux', '--out', '/tmp/not-a-repo-xyz'],
      /--out \/tmp\/not-a-repo-xyz is not inside a Git repository, .* pass --repo-path/,
    ],
  ])('%j is a usage error naming the fix, before anything is written', async (argv, message) => {
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-export-'));
    const io = testIo({ cwd });
    expect(await runCli(argv, io)).toBe(ExitCode.USAGE);
    expect(io.stderr.text).toMatch(message);
    expect(fs.readdirSync(cwd)).toEqual([]);
  });

  test('missing manifests name the directory and the synth command', async () => {
    const io = testIo({ cwd: gitRepo() });
    expect(await runCli(['export', 'kapp', 'nowhere', '--out', 'out'], io)).toBe(ExitCode.USAGE);
    expect(io.stderr.text).toContain('nowhere does not exist; run `stackwright synth`');
  });

  test('--out inside the manifests directory is refused', async () => {
    const dir = manifests();
    const io = testIo({ cwd: dir });
    expect(await runCli(['export', 'kapp', dir, '--out', 'gitops'], io)).toBe(ExitCode.USAGE);
    expect(io.stderr.text).toContain('is inside the manifests directory');
  });

  test('argocd: Applications with sync waves and the argocd-cm patch', async () => {
    const repo = gitRepo();
    const io = testIo({ cwd: repo });
    const argv = [
      'export',
      'argocd',
      manifests(),
      '--out',
      'apps',
      '--repo-url',
      'https://git.example.com/c.git',
    ];
    expect(await runCli(argv, io)).toBe(ExitCode.OK);
    const api = parse(fs.readFileSync(path.join(repo, 'apps/argocd/keystone-api.yaml'), 'utf8'));
    expect(api.metadata.annotations['argocd.argoproj.io/sync-wave']).toBe('3');
    expect(api.spec.source).toEqual({
      repoURL: 'https://git.example.com/c.git',
      targetRevision: 'HEAD',
      path: 'apps/units/keystone/keystone-api',
    });
    expect(fs.existsSync(path.join(repo, 'apps/argocd-cm-patch.yaml'))).toBe(true);
  });
});

describe('export writes only inside --out, and all or nothing', () => {
  /** Every file below `dir` with its content, links as `-> target`, for before/after comparisons. */
  function snapshot(dir: string): Record<string, string> {
    const files: Record<string, string> = {};
    const walk = (d: string) => {
      for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, entry.name);
        const key = path.relative(dir, p);
        if (entry.isSymbolicLink()) files[key] = `-> ${fs.readlinkSync(p)}`;
        else if (entry.isDirectory()) walk(p);
        else if (entry.isFile()) files[key] = fs.readFileSync(p, 'utf8');
        else files[key] = 'special';
      }
    };
    walk(dir);
    return files;
  }

  test('a link inside the output tree: its target keeps its *.yaml, the link stays, the export succeeds', async () => {
    // GIVEN an earlier export, and a link inside it to a folder elsewhere holding YAML files
    const repo = gitRepo();
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-elsewhere-'));
    fs.writeFileSync(path.join(elsewhere, 'precious.yaml'), 'keep: me\n');
    expect(await runCli(['export', 'flux', manifests(), '--out', 'out'], testIo({ cwd: repo }))).toBe(
      ExitCode.OK,
    );
    fs.symlinkSync(elsewhere, path.join(repo, 'out/units/elsewhere'));
    fs.writeFileSync(path.join(repo, 'out/units/README.md'), 'our notes\n');

    // WHEN
    const io = testIo({ cwd: repo });
    const code = await runCli(['export', 'flux', manifests(), '--out', 'out'], io);

    // THEN
    expect({ code, stderr: io.stderr.text }).toEqual({ code: ExitCode.OK, stderr: '' });
    expect(snapshot(elsewhere)).toEqual({ 'precious.yaml': 'keep: me\n' });
    expect(fs.readlinkSync(path.join(repo, 'out/units/elsewhere'))).toBe(elsewhere);
    expect(fs.readFileSync(path.join(repo, 'out/units/README.md'), 'utf8')).toBe('our notes\n');
    expect(fs.readdirSync(path.join(repo, 'out')).sort()).toEqual([
      'flux',
      'root-kustomization.yaml',
      'units',
    ]);
  });

  test('a failure leaves the previous export exactly as it was, stale units included', async () => {
    // GIVEN an earlier export with a stale unit, and a FIFO in a folder the export replaces
    const repo = gitRepo();
    expect(await runCli(['export', 'flux', manifests(), '--out', 'out'], testIo({ cwd: repo }))).toBe(
      ExitCode.OK,
    );
    fs.writeFileSync(path.join(repo, 'out/flux/old-unit.yaml'), 'kind: Kustomization\n');
    execFileSync('mkfifo', [path.join(repo, 'out/units/pipe')]);
    const before = snapshot(path.join(repo, 'out'));

    // WHEN
    const io = testIo({ cwd: repo });
    const code = await runCli(['export', 'flux', manifests(), '--out', 'out'], io);

    // THEN refused by name, nothing changed, no staging folder left
    expect(code).toBe(ExitCode.USAGE);
    expect(io.stderr.text).toContain(
      `${repo}/out/units/pipe is a FIFO (named pipe) inside a folder the export replaces; it cannot be carried over: move it out of the export`,
    );
    expect(snapshot(path.join(repo, 'out'))).toEqual(before);
  });

  test('a top-level folder of the layout that is a link is refused, its target untouched', async () => {
    // GIVEN --out/units is a link to a folder elsewhere
    const repo = gitRepo();
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-elsewhere-'));
    fs.writeFileSync(path.join(elsewhere, 'precious.yaml'), 'keep: me\n');
    fs.mkdirSync(path.join(repo, 'out'));
    fs.symlinkSync(elsewhere, path.join(repo, 'out/units'));

    // WHEN
    const io = testIo({ cwd: repo });
    const code = await runCli(
      ['export', 'argocd', manifests(), '--out', 'out', '--repo-url', 'https://g/c.git'],
      io,
    );

    // THEN
    expect(code).toBe(ExitCode.USAGE);
    expect(io.stderr.text).toContain(
      `${repo}/out/units is a symbolic link to ${elsewhere}; the export replaces this folder and never writes through a link: remove the link (its target is left alone)`,
    );
    expect(snapshot(elsewhere)).toEqual({ 'precious.yaml': 'keep: me\n' });
    expect(fs.readdirSync(path.join(repo, 'out'))).toEqual(['units']);
  });

  test('--out naming a file is refused before anything is written', async () => {
    const repo = gitRepo();
    fs.writeFileSync(path.join(repo, 'out'), 'a file\n');
    const io = testIo({ cwd: repo });
    expect(await runCli(['export', 'kapp', manifests(), '--out', 'out'], io)).toBe(ExitCode.USAGE);
    expect(io.stderr.text).toContain(`--out ${repo}/out is a regular file, not a folder; pass a folder`);
    expect(fs.readFileSync(path.join(repo, 'out'), 'utf8')).toBe('a file\n');
  });
});
