import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'cdk8s';
import { Cloud } from '../../lib/model';
import { countByClass, expectPathAndFix, messageOf } from './bad-input';
import { CONSTRUCT_CASES } from './constructs.cases';

// GIVEN a cloud `prod` in an App writing to a fresh directory
// WHEN a case builds its bad input and the App synthesises
// THEN the error names the construct path and the fix on every line, no problem is printed twice,
//      nothing crashed, and no file was written
describe('catalogue: bad input to the constructs', () => {
  test.each(CONSTRUCT_CASES.map((c) => [`class ${c.class}: ${c.name}`, c] as const))(
    '%s',
    (_title, testCase) => {
      const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-catalogue-'));
      const message = messageOf(() => {
        const app = new App({ outdir });
        testCase.build(new Cloud(app, 'prod', { namespace: 'openstack' }), app);
        app.synth();
      });
      expectPathAndFix(message, testCase);
      // AND every problem is one line with its construct path, and none is reported twice
      const problems = message.replace(/^Validation failed with the following errors:\n/, '').split('\n');
      expect(problems.filter((line) => !/^ *\[[^\]]+\] \S/.test(line))).toEqual([]);
      expect(problems.filter((line, i) => problems.indexOf(line) !== i)).toEqual([]);
      expect(fs.readdirSync(outdir)).toEqual([]);
    },
  );

  test('counts by class', () => {
    const counts = countByClass(CONSTRUCT_CASES);
    console.log(`construct cases by class: ${JSON.stringify(counts)}`);
    expect(counts[1]).toBeGreaterThanOrEqual(30);
    expect(counts[2]).toBeGreaterThanOrEqual(30);
    expect(counts[3]).toBeGreaterThanOrEqual(50);
  });
});
