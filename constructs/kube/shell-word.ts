import { shown } from '../../lib/graph';
/**
 * Values placed in the shell scripts Stackwright writes (Job commands, start scripts). A script
 * is built from our own text and values; these helpers make sure a value can only ever be one
 * word of it: anything that could end a quote, start a new command (`;`, `|`, `&`, a line break),
 * expand (`$`, a backquote) or split into several words is refused, whatever validation let
 * through. Validation reports bad input first, with its construct path; this is what makes a
 * script injection-proof by construction.
 */

/** Characters that are one word to the shell, unquoted or inside double quotes. */
const SHELL_WORD = /^[A-Za-z0-9_.,:/@%+=-]+$/;

/** `value` as one shell word; throws when it is not one. */
export function shellWord(value: string | number, what: string): string {
  const text = String(value);
  if (!SHELL_WORD.test(text))
    throw new Error(
      `${what} ${shown(text)} cannot be written into a shell script: use letters, digits and _ . , : / @ % + = -`,
    );
  return text;
}
