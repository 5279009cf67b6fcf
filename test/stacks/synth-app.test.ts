import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'cdk8s';
import { parse } from 'yaml';
import { referenceCloud } from '../../stacks/reference-cloud';

// Each test runs fresh Node processes (transpiling on a cold cache): seconds on a loaded machine.
const CHILD_PROCESS_TIMEOUT_MS = 60_000;
const root = path.join(__dirname, '..', '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-synth-app-'));
const env = { ...process.env, STACKWRIGHT_TRANSPILE_CACHE: path.join(work, 'transpile-cache') };

describe("cdk8s.yaml's app runs the TypeScript on disk", () => {
  test(
    'writes exactly what the reference stack synthesises, without a build',
    () => {
      // GIVEN the app command `npx cdk8s synth` runs, and an output directory
      const { app } = parse(fs.readFileSync(path.join(root, 'cdk8s.yaml'), 'utf8')) as { app: string };
      const outdir = path.join(work, 'dist');

      // WHEN it runs from the repository, as cdk8s runs it (a shell command with CDK8S_OUTDIR)
      execFileSync('/bin/sh', ['-c', app], {
        cwd: root,
        env: { ...env, CDK8S_OUTDIR: outdir },
        stdio: 'ignore',
      });

      // THEN the file is byte for byte what the same stack synthesises in this process
      const expected = new App();
      referenceCloud(expected);
      expect(fs.readdirSync(outdir)).toEqual(['reference.k8s.yaml']);
      expect(fs.readFileSync(path.join(outdir, 'reference.k8s.yaml'), 'utf8')).toBe(expected.synthYaml());
    },
    CHILD_PROCESS_TIMEOUT_MS,
  );

  test(
    'an edited file takes effect in the next run (the cache is keyed by content)',
    () => {
      // GIVEN a module that was run once, so its transpiled form is cached
      const file = path.join(work, 'value.ts');
      const runIt = () =>
        execFileSync(process.execPath, ['--require', path.join(root, 'bin', 'ts-register.js'), file], {
          env,
          encoding: 'utf8',
        });
      fs.writeFileSync(file, "const value: string = 'before';\nprocess.stdout.write(value);\n");
      expect(runIt()).toBe('before');

      // WHEN it is edited
      fs.writeFileSync(file, "const value: string = 'after';\nprocess.stdout.write(value);\n");

      // THEN the next run executes the new source
      expect(runIt()).toBe('after');
    },
    CHILD_PROCESS_TIMEOUT_MS,
  );
});
