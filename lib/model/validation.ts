import { IConstruct } from 'constructs';

/** A check that runs at synthesis; cdk8s prefixes each message with the construct path. */
export function addCheck(scope: IConstruct, check: () => string[]): void {
  scope.node.addValidation({ validate: check });
}

/**
 * Problems with a numeric option (empty when it is in range), e.g.
 * `replicas must be between 1 and 9, got 0`.
 */
export function rangeProblems(
  name: string,
  value: number | undefined,
  range: { readonly min?: number; readonly max?: number; readonly integer?: boolean },
): string[] {
  if (value === undefined) return [];
  if (range.integer !== false && !Number.isInteger(value))
    return [`${name} must be a whole number, got ${value}`];
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
