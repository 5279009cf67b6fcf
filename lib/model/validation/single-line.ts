import { shown } from '../../graph';
/** Line breaks and other control characters (tab excepted): what would start a new line, section or command. */
const CONTROL = /(?!\t)[\p{Cc}\u2028\u2029]/u;

/**
 * Problems with text written into a line-based file (oslo.config INI, my.cnf, shell, env): it must
 * stay on its line, or a value could add whole sections or commands.
 */
export function singleLineProblems(value: unknown, what: string): string[] {
  if (typeof value !== 'string') return [`${what} must be a string, got ${shown(value)}`];
  return CONTROL.test(value)
    ? [`${what} ${shown(value)} contains a line break or control character; put it on one line`]
    : [];
}

/** True when `value` has no line break or control character. */
export function isSingleLine(value: string): boolean {
  return !CONTROL.test(value);
}
