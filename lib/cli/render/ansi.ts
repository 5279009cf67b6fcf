/** Minimal ANSI styling; everything is plain text when colour is off. */
export interface Style {
  green(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

const wrap = (code: string) => (text: string) => `\u001b[${code}m${text}\u001b[0m`;

export function style(color: boolean): Style {
  if (!color) {
    const plain = (text: string) => text;
    return { green: plain, red: plain, yellow: plain, cyan: plain, dim: plain, bold: plain };
  }
  return {
    green: wrap('32'),
    red: wrap('31'),
    yellow: wrap('33'),
    cyan: wrap('36'),
    dim: wrap('2'),
    bold: wrap('1'),
  };
}

/** Spinner frames for running rows. */
export const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Moves the cursor up `lines` lines and clears from there to the end of the screen. */
export function eraseLines(lines: number): string {
  return lines > 0 ? `\u001b[${lines}F\u001b[0J` : '';
}

/** Removes ANSI sequences (for width computations and tests). */
export function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');
}

/** Cuts `text` to `width` visible characters (ANSI-aware enough for our own styling). */
export function truncate(text: string, width: number): string {
  const plain = stripAnsi(text);
  if (plain.length <= width) return text;
  return `${plain.slice(0, Math.max(0, width - 1))}…`;
}
