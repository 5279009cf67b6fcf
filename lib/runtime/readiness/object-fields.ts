import { KubeObject } from '../../graph';
import { ObjectStatus, ReadinessResult, StuckCause } from '../ports';

/**
 * Small readers over plain JSON objects. Live objects come from the API server as untyped JSON;
 * these helpers read them defensively so a missing or oddly typed field is "no signal", never a crash.
 */

/** A `status.conditions[]` entry. */
export interface Condition {
  readonly type: string;
  readonly status: string;
  readonly reason?: string;
  readonly message?: string;
  readonly lastTransitionTime?: string;
}

export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A whole number, or undefined when absent or not a number. */
export function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function spec(object: KubeObject): Record<string, unknown> {
  return asRecord(object.spec);
}

export function status(object: KubeObject): Record<string, unknown> {
  return asRecord(object.status);
}

/** `status.conditions`, keeping only well-formed entries. */
export function conditions(object: KubeObject): Condition[] {
  return asArray(status(object).conditions).flatMap((raw) => {
    const c = asRecord(raw);
    const type = asString(c.type);
    const st = asString(c.status);
    if (!type || !st) return [];
    return [
      {
        type,
        status: st,
        reason: asString(c.reason),
        message: asString(c.message),
        lastTransitionTime: asString(c.lastTransitionTime),
      },
    ];
  });
}

/** The condition of `type`, if present. */
export function condition(object: KubeObject, type: string): Condition | undefined {
  return conditions(object).find((c) => c.type === type);
}

/** True when the condition of `type` is present with status `True` (case-insensitive, as oper8). */
export function isTrue(object: KubeObject, type: string): boolean {
  return condition(object, type)?.status.toLowerCase() === 'true';
}

/** `metadata.generation`, when the API server tracks it for this kind. */
export function generation(object: KubeObject): number | undefined {
  return asNumber(object.metadata.generation);
}

/** `status.observedGeneration`, when the kind's controller reports it. */
export function observedGeneration(object: KubeObject): number | undefined {
  return asNumber(status(object).observedGeneration);
}

/** `spec.replicas` with the API default of 1. */
export function desiredReplicas(object: KubeObject): number {
  return asNumber(spec(object).replicas) ?? 1;
}

/** A condition's reason and message as "Reason: message" (either may be missing). */
export function describeCondition(c: Condition | undefined): string {
  if (!c) return '';
  return [c.reason, c.message].filter((s) => s && s.length > 0).join(': ');
}

export function result(statusValue: ObjectStatus, message: string): ReadinessResult {
  return { status: statusValue, message };
}

export const current = (message: string): ReadinessResult => result('Current', message);
export const inProgress = (message: string): ReadinessResult => result('InProgress', message);
/** A Failed result; `cause` when the rule knows the kind of failure (see `ReadinessResult.cause`). */
export const failed = (message: string, cause?: StuckCause): ReadinessResult =>
  cause ? { status: 'Failed', message, cause } : result('Failed', message);
