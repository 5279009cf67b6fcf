import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'cdk8s';
import fc from 'fast-check';
import { CONSTRUCT_TARGETS, ConstructTarget, LooseProps } from './construct-targets';
import { applyMutations, describeMutation, Mutation, mutation } from './mutation';
import { CASE_BOUND_MS, FuzzTally, fuzzParameters } from './settings';
import { crashIn } from './crash';

/** What building a target from `mutate(valid props)` and synthesising did. */
function attempt(target: ConstructTarget, mutate: (props: LooseProps) => unknown) {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'stackwright-fuzz-'));
  const started = Date.now();
  try {
    const app = new App({ outdir });
    target.build(app, mutate);
    app.synth();
    return { thrown: undefined, ms: Date.now() - started, written: fs.readdirSync(outdir) };
  } catch (error) {
    return { thrown: error, ms: Date.now() - started, written: fs.readdirSync(outdir) };
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

/** The keys a construct reads, as its unknown-key message lists them. */
function knownKeys(target: ConstructTarget): string[] {
  const { thrown } = attempt(target, (props) => ({ ...props, fuzzProbe: 1 }));
  const listed = /the known keys are ([^;\n]+)/.exec(thrown instanceof Error ? thrown.message : '');
  if (!listed) throw new Error(`${target.name}: an unknown key was not reported: ${String(thrown)}`);
  return listed[1].split(', ');
}

const tally = new FuzzTally();
afterAll(() => console.log(tally.report('constructs')));

// GIVEN valid props for every construct a user builds
// WHEN one to three of them are replaced by hostile values (wrong types, NaN, huge or negative
//      numbers, control characters, very long strings, deep nesting, prototype keys) and the App
//      synthesises
// THEN it either synthesises, or fails with an Error (no TypeError, RangeError or the like) whose
//      every line names the construct path, within the bound, having written no file
describe.each(CONSTRUCT_TARGETS.map((t) => [t.name, t] as const))('fuzz: %s props', (_name, target) => {
  test('the valid props synthesise (what the fuzzer starts from)', () => {
    const { thrown } = attempt(target, (props) => props);
    expect(thrown).toBeUndefined();
  });

  test('hostile props fail with the construct path, or are accepted', () => {
    const keys = knownKeys(target);
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 3 }), (mutations: Mutation[]) => {
        const { thrown, ms, written } = attempt(target, (props) => applyMutations(props, mutations, keys));
        const input = `${target.name}: ${mutations.map(describeMutation).join(' then ')}`;
        if (ms > CASE_BOUND_MS)
          throw new Error(`${input}: took ${ms} ms, more than the ${CASE_BOUND_MS} ms bound`);
        if (thrown === undefined) {
          tally.count('accepted');
          return;
        }
        const crash = crashIn(thrown);
        if (crash) throw new Error(`${input}: crashed: ${crash}`);
        const message = (thrown as Error).message;
        const lines = message.split('\n').slice(message.startsWith('Validation failed') ? 1 : 0);
        const unnamed = lines.filter(
          (line) => line.trim() !== '' && !line.trim().startsWith(`[${target.path}`),
        );
        if (unnamed.length > 0)
          throw new Error(`${input}: a message without the construct path [${target.path}]: ${unnamed[0]}`);
        if (written.length > 0) throw new Error(`${input}: failed but wrote ${written.join(', ')}`);
        tally.count('refused');
      }),
      fuzzParameters(40),
    );
  });
});
