import { shown } from '../../graph';
/**
 * Problems with an options object from plain JavaScript or YAML: not an object, or keys nobody
 * reads (a typo would otherwise be ignored without a word).
 */
export function unknownKeyProblems(value: unknown, known: readonly string[], what: string): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return [`${what} must be an object, got ${shown(value)}`];
  const unknown = Object.keys(value).filter((key) => !known.includes(key));
  return unknown.map(
    (key) => `${what} has an unknown key ${shown(key)}; the known keys are ${known.join(', ') || 'none'}`,
  );
}
