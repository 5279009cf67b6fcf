/** Nesting shown in a message before `{…}`; input can be nested deeper than any stack. */
const MAX_DEPTH = 3;
/** Characters of a string shown in a message; input can be megabytes long. */
const MAX_STRING = 256;
/** Items of an array or entries of an object shown before `…`. */
const MAX_ENTRIES = 20;

/**
 * A value as messages quote it: JSON (`NaN` and `Infinity` as such), with its nesting, strings and lists cut short. `JSON.stringify`
 * itself overflows the stack on deep input (a `RangeError` instead of the message), throws on cycles
 * and `BigInt`, and would copy a 100 MB string into the message.
 */
export function shown(value: unknown): string {
  return render(value, 0);
}

function render(value: unknown, depth: number): string {
  if (typeof value === 'string') {
    return value.length > MAX_STRING
      ? `${JSON.stringify(value.slice(0, MAX_STRING))}… (${value.length} characters)`
      : JSON.stringify(value);
  }
  if (typeof value === 'bigint') return `${value}n`;
  // JSON would write NaN and ±Infinity as null, which is not what was given.
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? String(value);
  const proto: unknown = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null)
    return `<${(value as object).constructor?.name ?? 'object'}>`;
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? '[…]' : '{…}';
  if (Array.isArray(value)) {
    const items = value
      .slice(0, MAX_ENTRIES)
      .map((item) => (item === undefined ? 'null' : render(item, depth + 1)));
    return `[${items.join(',')}${value.length > MAX_ENTRIES ? ',…' : ''}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(
    ([, v]) => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol',
  );
  const shownEntries = entries
    .slice(0, MAX_ENTRIES)
    .map(([k, v]) => `${render(k, depth)}:${render(v, depth + 1)}`);
  return `{${shownEntries.join(',')}${entries.length > MAX_ENTRIES ? ',…' : ''}}`;
}
