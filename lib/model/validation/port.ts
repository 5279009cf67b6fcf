import { rangeProblems } from './range';

/** Problems with a TCP/UDP port number: a whole number from 1 to 65535. */
export function portProblems(value: unknown, what: string): string[] {
  return rangeProblems(what, value, { min: 1, max: 65535 });
}
