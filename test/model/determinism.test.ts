import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'cdk8s';
import { referenceCloud } from '../../stacks/reference-cloud';

function synthToDirectory(): Record<string, string> {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-det-'));
  const app = new App({ outdir });
  referenceCloud(app);
  app.synth();
  return Object.fromEntries(
    fs.readdirSync(outdir).map((f) => [f, fs.readFileSync(path.join(outdir, f), 'utf8')]),
  );
}

describe('deterministic synthesis', () => {
  test('synthesising the reference cloud twice gives byte-identical files', () => {
    // WHEN
    const first = synthToDirectory();
    const second = synthToDirectory();

    // THEN
    expect(Object.keys(first).length).toBeGreaterThan(0);
    expect(second).toEqual(first);
  });

  test('no object name carries a generated hash suffix', () => {
    const files = synthToDirectory();
    const names = Object.values(files).flatMap((text) =>
      [...text.matchAll(/^ {2}name: (.+)$/gm)].map((m) => m[1]),
    );
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) expect(name).not.toMatch(/-c8[0-9a-f]{6}$/);
  });
});
