/**
 * The catalogue of bad inputs (issue 12): data-driven cases, one file per surface (constructs, the
 * CLI, the runtime and its loader), each run by its own runner. A case says which class of the
 * issue it belongs to, where the message must point (a construct path, a file and document, an
 * object) and the fix it must name; every runner also checks that nothing was written and that
 * no TypeError or RangeError escaped.
 */

/** The classes of issue 12 this catalogue closes. */
export const BAD_INPUT_CLASSES = {
  1: 'values that break the file they are written into',
  2: 'crashes instead of errors',
  3: 'silently accepted',
  4: 'holes in the manifest contract',
} as const;

export type BadInputClass = keyof typeof BAD_INPUT_CLASSES;

export interface BadInputCase {
  readonly class: BadInputClass;
  /** What is wrong, as the test's title. */
  readonly name: string;
  /** Where the message must point: `[prod/db]` for a construct, a file and document, an object. */
  readonly path: string;
  /** What the message must say to do. */
  readonly fix: string | RegExp;
}

/** Errors that mean a crash, not an answer: they must never reach a user. */
const CRASHES =
  /\b(TypeError|RangeError|ReferenceError|SyntaxError)\b|Cannot read propert|is not a function|is not iterable|Invalid array length|Maximum call stack/;

/** The message of what `fn` threw; fails the test when it threw nothing or crashed. */
export function messageOf(fn: () => unknown): string {
  let thrown: unknown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  return checkedMessage(thrown);
}

/** The message of the rejection of `promise`; fails the test when it resolved or crashed. */
export async function rejectionOf(promise: Promise<unknown>): Promise<string> {
  let thrown: unknown;
  try {
    await promise;
  } catch (error) {
    thrown = error;
  }
  return checkedMessage(thrown);
}

function checkedMessage(thrown: unknown): string {
  if (thrown === undefined) throw new Error('the bad input was accepted: nothing was thrown');
  if (!(thrown instanceof Error)) throw new Error(`a non-Error was thrown: ${String(thrown)}`);
  if (
    ['TypeError', 'RangeError', 'ReferenceError', 'SyntaxError'].includes(thrown.name) ||
    CRASHES.test(thrown.message)
  )
    throw new Error(`a crash escaped instead of an error: ${thrown.stack ?? thrown.message}`);
  return thrown.message;
}

/** Asserts the message points at the case's path and names its fix. */
export function expectPathAndFix(message: string, testCase: BadInputCase): void {
  expect(message).toContain(testCase.path);
  if (typeof testCase.fix === 'string') expect(message).toContain(testCase.fix);
  else expect(message).toMatch(testCase.fix);
}

/** Cases per class, for the counts the catalogue reports. */
export function countByClass(cases: readonly BadInputCase[]): Record<BadInputClass, number> {
  const counts: Record<BadInputClass, number> = { 1: 0, 2: 0, 3: 0, 4: 0 };
  for (const c of cases) counts[c.class]++;
  return counts;
}

/** A value as plain JavaScript or YAML could pass it, whatever the TypeScript type says. */
export function js<T>(value: unknown): T {
  return value as T;
}
