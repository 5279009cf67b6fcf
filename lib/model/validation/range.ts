import { shown } from '../../graph';
/** Bounds of a numeric option; whole numbers unless `integer: false`. */
export interface NumberRange {
  readonly min?: number;
  readonly max?: number;
  /** @default true */
  readonly integer?: boolean;
}

/**
 * Problems with a numeric option (empty when it is in range or not given), e.g.
 * `replicas must be between 1 and 9, got 0`. Anything but a finite number is a problem: `NaN`,
 * `Infinity` and `'3'` from JavaScript or YAML would otherwise reach an `Array.from` or a file.
 */
export function rangeProblems(name: string, value: unknown, range: NumberRange): string[] {
  if (value === undefined) return [];
  const bounds = describeBounds(range);
  if (typeof value !== 'number') return [`${name} must be a number${bounds}, got ${shown(value)}`];
  if (!Number.isFinite(value)) return [`${name} must be a finite number${bounds}, got ${value}`];
  if (range.integer !== false && !Number.isInteger(value))
    return [`${name} must be a whole number${bounds}, got ${value}`];
  const tooLow = range.min !== undefined && value < range.min;
  const tooHigh = range.max !== undefined && value > range.max;
  if (!tooLow && !tooHigh) return [];
  if (range.min !== undefined && range.max !== undefined) {
    return [`${name} must be between ${range.min} and ${range.max}, got ${value}`];
  }
  return tooLow
    ? [`${name} must be >= ${range.min}, got ${value}`]
    : [`${name} must be <= ${range.max}, got ${value}`];
}

function describeBounds(range: NumberRange): string {
  if (range.min !== undefined && range.max !== undefined) return ` between ${range.min} and ${range.max}`;
  if (range.min !== undefined) return ` >= ${range.min}`;
  if (range.max !== undefined) return ` <= ${range.max}`;
  return '';
}
