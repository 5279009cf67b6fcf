import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../../lib/cli/program';
import { InMemoryCluster } from '../../lib/testing/in-memory-cluster';
import { testIo } from '../cli/support';
import { countByClass, expectPathAndFix } from './bad-input';
import { CLI_CASES } from './cli.cases';

// The CLI imports each command's module when it first runs: import them outside the tests' timeouts.
beforeAll(
  () =>
    Promise.all(
      ['deploy', 'destroy', 'graph', 'plan', 'status', 'verify'].map(
        (c) => import(`../../lib/cli/commands/${c}`),
      ),
    ),
  120_000,
);

// GIVEN a manifests directory with the case's files and an empty in-memory cluster
// WHEN the command runs
// THEN it exits with the documented code, the message names the file (or option) and the fix,
//      the cluster was never opened, it holds no object, and no crash was printed
describe('catalogue: bad input to the CLI', () => {
  test.each(CLI_CASES.map((c) => [`class ${c.class}: ${c.name}`, c] as const))(
    '%s',
    async (_title, testCase) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-catalogue-cli-'));
      for (const [file, text] of Object.entries(testCase.files)) fs.writeFileSync(path.join(dir, file), text);
      testCase.setup?.(dir);
      const cluster = new InMemoryCluster();
      const io = testIo({ cluster, tty: testCase.tty, cwd: dir });

      const code = await runCli(testCase.args(dir), io);

      expect({ code, stderr: io.stderr.text }).toEqual({ code: testCase.exit, stderr: expect.any(String) });
      expectPathAndFix(io.stderr.text, testCase);
      expect(io.stderr.text).not.toMatch(/TypeError|RangeError|Cannot read propert|at .*\.ts:\d+/);
      expect(io.opened).toBe(0);
      expect(cluster.all()).toEqual([]);
    },
  );

  test('counts by class', () => {
    const counts = countByClass(CLI_CASES);
    console.log(`CLI cases by class: ${JSON.stringify(counts)}`);
    expect(counts[4]).toBeGreaterThanOrEqual(40);
  });
});
