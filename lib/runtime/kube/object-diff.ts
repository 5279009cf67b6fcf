import { createHash } from 'crypto';
import { KubeObject } from '../../graph';

/** One difference between two versions of an object, at a readable path. */
export interface FieldChange {
  /** e.g. `spec.template.spec.containers[name=api].image`, `metadata.labels["app.kubernetes.io/name"]`. */
  readonly path: string;
  readonly change: 'added' | 'removed' | 'changed';
  /** Absent for `added`; `(sensitive)` for Secret values. */
  readonly before?: unknown;
  /** Absent for `removed`; `(sensitive)` for Secret values. */
  readonly after?: unknown;
}

/** What a Secret value is shown as: never its content, never a hash of it (short secrets are guessable). */
export const REDACTED = '(sensitive)';

/** Server-maintained bookkeeping that says nothing about what the user changes. */
const IGNORED_METADATA = new Set([
  'managedFields',
  'resourceVersion',
  'generation',
  'uid',
  'creationTimestamp',
  'selfLink',
]);

/**
 * The changes from `before` to `after` (live object and server-side dry-run result in `plan`),
 * ignoring status and server bookkeeping. List items are matched by `name` when every item has
 * one (containers, ports, env), else by position. Values of Secret `data`/`stringData` are
 * replaced by `(sensitive)`.
 */
export function diffObjects(before: KubeObject, after: KubeObject): FieldChange[] {
  const changes: FieldChange[] = [];
  walk(comparable(before), comparable(after), '', changes);
  return isSecret(after) || isSecret(before) ? changes.map(redactChange) : changes;
}

/**
 * True when every field of `desired` already has that value in `live` (a subset check; the
 * server adds defaults and other managers' fields). Used to skip writes on a re-run: together with
 * an unchanged manifest hash it means server-side apply would change nothing. Scalars compare by
 * value across number/string (`8080` vs `"8080"`); `{}`, `[]`, `null` and `''` in `desired` match
 * an absent field (the server drops what it stores with omitempty); Secret `stringData` is compared
 * with the decoded `data`.
 */
export function containsDesired(desired: KubeObject, live: KubeObject): boolean {
  const { status: _ignored, ...spec } = desired as KubeObject & { status?: unknown };
  void _ignored;
  if (isSecret(desired)) {
    const { stringData, ...rest } = spec as { stringData?: Record<string, string> };
    const liveData = ((live as { data?: Record<string, string> }).data ?? {}) as Record<string, string>;
    for (const [key, value] of Object.entries(stringData ?? {})) {
      const encoded = liveData[key];
      if (encoded === undefined || Buffer.from(encoded, 'base64').toString('utf8') !== value) return false;
    }
    return subset(rest, live);
  }
  return subset(spec, live);
}

/** JSON with object keys sorted at every level: equal objects serialise identically. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

/**
 * A short, stable content hash of a manifest (what the inventory records per object). A Secret is
 * hashed without its values ({@link redactSecret}): the inventory ConfigMap is readable more widely
 * than Secrets, and an unsalted hash of a short password is a dictionary look-up away from it. A
 * changed value still gets applied: skipping a write also needs the live object to hold every
 * desired value ({@link containsDesired}).
 */
export function hashObject(object: unknown): string {
  const content = isKubeObject(object) ? redactSecret(object) : object;
  return createHash('sha256').update(canonicalJson(content)).digest('hex').slice(0, 16);
}

/** A Secret with its `data`/`stringData` values replaced, safe to print or log. */
export function redactSecret(object: KubeObject): KubeObject {
  if (!isSecret(object)) return object;
  const copy: Record<string, unknown> = { ...object };
  for (const field of ['data', 'stringData']) {
    const values = copy[field];
    if (values && typeof values === 'object') {
      copy[field] = Object.fromEntries(Object.keys(values).map((key) => [key, REDACTED]));
    }
  }
  return copy as KubeObject;
}

function isKubeObject(value: unknown): value is KubeObject {
  return isPlainObject(value) && typeof value.kind === 'string' && isPlainObject(value.metadata);
}

function isSecret(object: KubeObject): boolean {
  return object.kind === 'Secret' && object.apiVersion === 'v1';
}

function redactChange(change: FieldChange): FieldChange {
  if (!/^(data|stringData)(\.|\[|$)/.test(change.path)) return change;
  return {
    path: change.path,
    change: change.change,
    ...(change.change !== 'added' ? { before: REDACTED } : {}),
    ...(change.change !== 'removed' ? { after: REDACTED } : {}),
  };
}

function comparable(object: KubeObject): Record<string, unknown> {
  const { status: _status, metadata, ...rest } = object as KubeObject & { status?: unknown };
  void _status;
  const meta = Object.fromEntries(Object.entries(metadata).filter(([key]) => !IGNORED_METADATA.has(key)));
  return { ...rest, metadata: meta };
}

function walk(before: unknown, after: unknown, path: string, out: FieldChange[]): void {
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const key of keys) {
      const child = childPath(path, key);
      if (!(key in before)) out.push({ path: child, change: 'added', after: after[key] });
      else if (!(key in after)) out.push({ path: child, change: 'removed', before: before[key] });
      else walk(before[key], after[key], child, out);
    }
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const byName = namedItems(before) && namedItems(after);
    if (byName) {
      const beforeByName = new Map(before.map((item) => [(item as { name: string }).name, item]));
      const afterByName = new Map(after.map((item) => [(item as { name: string }).name, item]));
      for (const name of new Set([...beforeByName.keys(), ...afterByName.keys()])) {
        const child = `${path}[name=${name}]`;
        if (!beforeByName.has(name)) out.push({ path: child, change: 'added', after: afterByName.get(name) });
        else if (!afterByName.has(name))
          out.push({ path: child, change: 'removed', before: beforeByName.get(name) });
        else walk(beforeByName.get(name), afterByName.get(name), child, out);
      }
      return;
    }
    const length = Math.max(before.length, after.length);
    for (let i = 0; i < length; i++) {
      const child = `${path}[${i}]`;
      if (i >= before.length) out.push({ path: child, change: 'added', after: after[i] });
      else if (i >= after.length) out.push({ path: child, change: 'removed', before: before[i] });
      else walk(before[i], after[i], child, out);
    }
    return;
  }
  if (canonicalJson(before) !== canonicalJson(after)) out.push({ path, change: 'changed', before, after });
}

function subset(desired: unknown, live: unknown): boolean {
  if (desired === null || desired === undefined) return live === null || live === undefined || isEmpty(live);
  // The API server drops empty strings it stores with omitempty (an env var's `value: ""`).
  if (desired === '' && (live === null || live === undefined)) return true;
  if (isPlainObject(desired)) {
    if (live === undefined || live === null) return isEmpty(desired);
    if (!isPlainObject(live)) return false;
    return Object.entries(desired).every(([key, value]) => subset(value, live[key]));
  }
  if (Array.isArray(desired)) {
    if (live === undefined || live === null) return desired.length === 0;
    if (!Array.isArray(live) || live.length !== desired.length) return false;
    return desired.every((item, i) => subset(item, live[i]));
  }
  if (desired === live) return true;
  if (!isScalar(desired) || !isScalar(live)) return false;
  if (String(desired) === String(live)) return true;
  // The API server canonicalises resource quantities: 1024Mi is stored as 1Gi, 0.5 as 500m.
  const a = parseQuantity(String(desired));
  const b = parseQuantity(String(live));
  return a !== undefined && b !== undefined && Math.abs(a - b) <= Math.abs(a) * 1e-12;
}

const QUANTITY_SUFFIX: Readonly<Record<string, number>> = {
  '': 1,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/** The value of a Kubernetes resource quantity (`1Gi`, `500m`, `1e3`), or undefined when it is not one. */
export function parseQuantity(text: string): number | undefined {
  const match = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E))?$/.exec(
    text,
  );
  if (!match) return undefined;
  const base = Number(match[1]);
  if (match[2]) return Number(`${match[1]}${match[2]}`);
  return base * (QUANTITY_SUFFIX[match[3] ?? ''] ?? 1);
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function isEmpty(value: unknown): boolean {
  return (
    (Array.isArray(value) && value.length === 0) || (isPlainObject(value) && Object.keys(value).length === 0)
  );
}

function namedItems(items: unknown[]): boolean {
  if (items.length === 0) return false;
  const names = items.map((item) =>
    isPlainObject(item) && typeof item.name === 'string' ? item.name : undefined,
  );
  return names.every((n) => n !== undefined) && new Set(names).size === names.length;
}

function childPath(path: string, key: string): string {
  const segment = /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? key : JSON.stringify(key);
  if (path === '') return segment.startsWith('"') ? `[${segment}]` : segment;
  return segment.startsWith('"') ? `${path}[${segment}]` : `${path}.${segment}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (isPlainObject(value)) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys(value[key])]),
    );
  }
  return value;
}
