import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { deploy, destroy, plan } from '../../lib/runtime';
import { InMemoryCluster } from '../../lib/testing/in-memory-cluster';
import { countByClass, expectPathAndFix, rejectionOf } from './bad-input';
import { RUNTIME_CASES, RuntimeCase } from './runtime.cases';

/** The case's input: its objects, or a directory holding its YAML as `cloud.k8s.yaml`. */
function inputOf(testCase: RuntimeCase): unknown {
  if (testCase.yaml === undefined) return testCase.input;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-catalogue-runtime-'));
  fs.writeFileSync(path.join(dir, 'cloud.k8s.yaml'), testCase.yaml);
  return dir;
}

const OPERATIONS = {
  deploy: (input: unknown, cluster: InMemoryCluster) => deploy(input as never, { cluster }),
  plan: (input: unknown, cluster: InMemoryCluster) => plan(input as never, { cluster }),
  destroy: (input: unknown, cluster: InMemoryCluster) => destroy(input as never, { cluster }),
};

// GIVEN an empty in-memory cluster
// WHEN a program passes the case's input to deploy, plan or destroy
// THEN the promise rejects with an error naming the object (or file and document) and the fix,
//      no crash escapes, and the cluster received no request at all
describe('catalogue: bad input to the runtime and its manifest loader', () => {
  const rows = RUNTIME_CASES.flatMap((c) =>
    (c.operations ?? (Object.keys(OPERATIONS) as (keyof typeof OPERATIONS)[])).map(
      (operation) => [`class ${c.class}: ${operation}: ${c.name}`, c, operation] as const,
    ),
  );
  test.each(rows)('%s', async (_title, testCase, operation) => {
    const cluster = new InMemoryCluster();
    const message = await rejectionOf(OPERATIONS[operation](inputOf(testCase), cluster));
    expectPathAndFix(message, testCase);
    expect(cluster.all()).toEqual([]);
    expect(cluster.calls('apply')).toEqual([]);
    expect(cluster.calls('get')).toEqual([]);
  });

  test('counts by class', () => {
    const counts = countByClass(RUNTIME_CASES);
    console.log(`runtime cases by class: ${JSON.stringify(counts)}`);
    expect(counts[4]).toBeGreaterThanOrEqual(12);
    expect(counts[2]).toBeGreaterThanOrEqual(7);
  });
});
