/** Errors that mean a crash, not an answer (as the catalogue's runners hold them). */
const CRASH_NAMES = ['TypeError', 'RangeError', 'ReferenceError', 'SyntaxError', 'EvalError', 'URIError'];
const CRASH_TEXT =
  /\b(TypeError|RangeError|ReferenceError|SyntaxError)\b|Cannot read propert|is not a function|is not iterable|Invalid array length|Maximum call stack|Invalid string length|\bE[A-Z]{3,}\b:|^\s+at .*:\d+:\d+\)?$/m;

/** Why `thrown` is a crash rather than a typed error, or `undefined` when it is an answer. */
export function crashIn(thrown: unknown): string | undefined {
  if (!(thrown instanceof Error)) return `a non-Error was thrown: ${String(thrown)}`;
  if (CRASH_NAMES.includes(thrown.name)) return thrown.stack ?? thrown.message;
  if (CRASH_TEXT.test(thrown.message)) return thrown.message;
  return undefined;
}

/** Why `text` (what the CLI printed) shows a crash, or `undefined`. */
export function crashInOutput(text: string): string | undefined {
  const match = CRASH_TEXT.exec(text);
  return match ? `${match[0].trim()} in: ${text.slice(0, 2000)}` : undefined;
}
