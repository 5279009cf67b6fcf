import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '../..');

/** Runs `program` as a user's main.ts would run: its own Node process, no test runner around it. */
function runProgram(program: string, env: Record<string, string> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-main-'));
  const file = path.join(dir, 'main.ts');
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  fs.writeFileSync(file, program.replace(/STACKWRIGHT/g, JSON.stringify(path.join(ROOT, 'index'))));
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete childEnv.JEST_WORKER_ID;
  const run = spawnSync(process.execPath, ['--require', path.join(ROOT, 'bin/ts-register.js'), file], {
    cwd: dir,
    env: childEnv,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, stderr: run.stderr, dir };
}

const BAD_SYNTH = `
import { ApiObject, App, Chart } from 'cdk8s';
import { Cloud, Memcached } from STACKWRIGHT;
const app = new App({ outdir: 'dist' });
const cloud = new Cloud(app, 'prod', { namespace: 'openstack' });
new Memcached(cloud, 'cache');
new ApiObject(new Chart(app, 'other'), 'web', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } });
app.synth();
`;

describe("a user's program that fails on bad input", () => {
  test('prints each problem once, with its construct path, no stack trace, and exits 1', () => {
    // GIVEN a main.ts without any try/catch whose synthesis finds a problem
    // WHEN it runs
    const { status, stderr, dir } = runProgram(BAD_SYNTH);
    // THEN the message alone, once, and nothing written
    expect(status).toBe(1);
    expect(stderr).toMatch(
      /^Validation failed with the following errors:\n {2}\[prod\] other\/web: Deployment "web" is in the same App as this cloud but in no cloud; .*new App\(\{ outdir: 'dist-extra' \}\)\)\n$/,
    );
    expect(stderr.match(/other\/web/g)).toHaveLength(1);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stderr).not.toContain('Node.js v');
    const outdir = path.join(dir, 'dist'); // cdk8s creates it before validating; nothing goes in
    expect(fs.existsSync(outdir) ? fs.readdirSync(outdir) : []).toEqual([]);
  });

  test('a construct refusing its props at construction is reported the same way', () => {
    // GIVEN a cloud whose props are refused by its constructor
    const { status, stderr } = runProgram(`
import { App } from 'cdk8s';
import { Cloud } from STACKWRIGHT;
new Cloud(new App(), 'prod', { namespace: 'openstack', release: 'epoxy' as never });
`);
    // THEN
    expect(status).toBe(1);
    expect(stderr).toBe(
      "Validation failed with the following errors:\n  [prod] release must be one of '2024.2', '2025.1', got \"epoxy\"; \"epoxy\" is the codename of '2025.1': write release: '2025.1'\n",
    );
  });

  test('an input error from an async program (an unhandled rejection) is reported the same way', () => {
    const { status, stderr } = runProgram(`
import { App } from 'cdk8s';
import { Cloud } from STACKWRIGHT;
async function main() {
  await new Promise((resolve) => setTimeout(resolve, 10));
  new Cloud(new App(), 'prod', { namespace: 'Not-A-Namespace' });
}
void main();
`);
    expect(status).toBe(1);
    expect(stderr).toMatch(/^Validation failed with the following errors:\n {2}\[prod\] namespace/);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  test('STACKWRIGHT_STACK_TRACES=1 gives Node its default report, stack included', () => {
    const { status, stderr } = runProgram(BAD_SYNTH, { STACKWRIGHT_STACK_TRACES: '1' });
    expect(status).toBe(1);
    expect(stderr).toContain('other/web');
    expect(stderr).toMatch(/\n\s+at /);
  });

  test("an error that is not Stackwright's input error keeps Node's default report and exit code", () => {
    // GIVEN a program with a cloud that then fails for its own reasons
    const { status, stderr } = runProgram(`
import { App } from 'cdk8s';
import { Cloud } from STACKWRIGHT;
new Cloud(new App(), 'prod', { namespace: 'openstack' });
(null as unknown as { x: number }).x;
`);
    // THEN the TypeError with its stack, as without Stackwright
    expect(status).toBe(1);
    expect(stderr).toContain('TypeError');
    expect(stderr).toMatch(/\n\s+at /);
  });
});
