import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ExitCode } from '../../lib/cli/exit-codes';
import { runCli } from '../../lib/cli/program';
import { testIo } from './support';

const OWN = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  version: string;
  peerDependencies: Record<string, string>;
};

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-init-'));
}

describe('stackwright init', () => {
  test('writes a TypeScript cdk8s project that starts from the reference cloud', async () => {
    // GIVEN
    const cwd = tempDir();
    const io = testIo({ cwd });

    // WHEN
    const code = await runCli(['init', 'My Cloud'], io);

    // THEN
    expect(code).toBe(ExitCode.OK);
    const dir = path.join(cwd, 'My Cloud');
    expect(fs.readdirSync(dir).sort()).toEqual(
      [
        '.gitignore',
        'README.md',
        'cdk8s.yaml',
        'cloud.ts',
        'jest.config.js',
        'main.test.ts',
        'main.ts',
        'package.json',
        'tsconfig.json',
      ].sort(),
    );
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    expect(pkg.name).toBe('my-cloud');
    expect(pkg.dependencies).toEqual({
      cdk8s: OWN.peerDependencies.cdk8s,
      constructs: OWN.peerDependencies.constructs,
      stackwright: `^${OWN.version}`,
    });
    expect(Object.keys(pkg.devDependencies)).toEqual(
      expect.arrayContaining(['cdk8s-cli', 'jest', 'ts-jest', 'ts-node', 'typescript']),
    );
    expect(fs.readFileSync(path.join(dir, 'cdk8s.yaml'), 'utf8')).toContain('app: npx ts-node main.ts');
    expect(fs.readFileSync(path.join(dir, 'cloud.ts'), 'utf8')).toContain("referenceCloud(scope, 'my-cloud'");
    expect(fs.readFileSync(path.join(dir, 'main.test.ts'), 'utf8')).toContain("from 'stackwright/testing'");
    // AND the tsconfig is the one `cdk8s init typescript-app` writes
    const cdk8sTemplate = path.join(
      path.dirname(require.resolve('cdk8s-cli/package.json')),
      'templates',
      'typescript-app',
      'tsconfig.json',
    );
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'tsconfig.json'), 'utf8'))).toEqual(
      JSON.parse(fs.readFileSync(cdk8sTemplate, 'utf8')),
    );
    expect(io.stdout.text).toContain('npm install && npx cdk8s synth && npm test');
  });

  test('writes a plain JavaScript project with --language javascript', async () => {
    // GIVEN
    const cwd = tempDir();

    // WHEN
    const code = await runCli(['init', '--language', 'javascript'], testIo({ cwd }));

    // THEN the current directory, which was empty, holds the project
    expect(code).toBe(ExitCode.OK);
    expect(
      fs
        .readdirSync(cwd)
        .filter((f) => /\.(ts|js)$/.test(f))
        .sort(),
    ).toEqual(['cloud.js', 'jest.config.js', 'main.js', 'main.test.js']);
    expect(fs.readFileSync(path.join(cwd, 'cdk8s.yaml'), 'utf8')).toContain('app: node main.js');
    const pkg = JSON.parse(fs.readFileSync(path.join(cwd, 'package.json'), 'utf8'));
    expect(Object.keys(pkg.devDependencies).sort()).toEqual(['cdk8s-cli', 'jest']);
  });

  test('refuses a directory that is not empty, naming what is there, and writes nothing', async () => {
    // GIVEN
    const cwd = tempDir();
    fs.writeFileSync(path.join(cwd, 'main.ts'), '// mine\n');
    const io = testIo({ cwd });

    // WHEN
    const code = await runCli(['init'], io);

    // THEN
    expect(code).toBe(ExitCode.USAGE);
    expect(io.stderr.text).toContain(
      '. is not empty (main.ts); stackwright init writes a new project: choose a new or empty directory, e.g. stackwright init my-cloud',
    );
    expect(fs.readdirSync(cwd)).toEqual(['main.ts']);
    expect(fs.readFileSync(path.join(cwd, 'main.ts'), 'utf8')).toBe('// mine\n');
  });

  test('accepts a directory holding only a Git repository', async () => {
    // GIVEN
    const cwd = tempDir();
    fs.mkdirSync(path.join(cwd, '.git'));

    // THEN
    expect(await runCli(['init'], testIo({ cwd }))).toBe(ExitCode.OK);
    expect(fs.existsSync(path.join(cwd, 'cloud.ts'))).toBe(true);
  });
});
