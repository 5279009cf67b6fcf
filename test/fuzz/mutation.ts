import fc from 'fast-check';
import { hostileKey, hostileValue, objectOf } from './hostile';

/**
 * A change to valid input: one value somewhere replaced by a hostile one, a key added, or the
 * whole replaced. Positions are indexes taken modulo what the input has, so one generated change
 * applies to any input.
 */
export type Mutation =
  | { readonly kind: 'known-key'; readonly index: number; readonly value: unknown }
  | { readonly kind: 'path'; readonly index: number; readonly value: unknown }
  | { readonly kind: 'extra-key'; readonly key: string; readonly value: unknown }
  | { readonly kind: 'config'; readonly section: string; readonly option: string; readonly value: unknown }
  | { readonly kind: 'whole'; readonly value: unknown };

const anyMutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    arbitrary: fc.record({ kind: fc.constant('known-key' as const), index: fc.nat(), value: hostileValue }),
    weight: 4,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('path' as const), index: fc.nat(), value: hostileValue }),
    weight: 4,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('extra-key' as const), key: hostileKey, value: hostileValue }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('config' as const),
      section: fc.oneof(fc.constantFrom('DEFAULT', 'database', 'keystone_authtoken'), hostileKey),
      option: fc.oneof(fc.constantFrom('debug', 'workers', 'connection', 'log_dir'), hostileKey),
      value: hostileValue,
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant('whole' as const), value: hostileValue }), weight: 1 },
);

/** A mutation that fast-check prints with {@link describeMutation} (its own printer recurses into deep values). */
export const mutation: fc.Arbitrary<Mutation> = anyMutation.map((m) =>
  Object.defineProperty({ ...m }, fc.toStringMethod, { value: () => describeMutation(m) }),
);

/** Plain data (objects and arrays we may copy and change), as opposed to constructs and other instances. */
function isPlain(value: unknown): value is Record<string, unknown> | unknown[] {
  if (Array.isArray(value)) return true;
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A copy of the plain parts of `value` (constructs are kept as they are). */
function copy(value: unknown): unknown {
  if (!isPlain(value)) return value;
  if (Array.isArray(value)) return value.map(copy);
  return objectOf(Object.entries(value).map(([k, v]) => [k, copy(v)] as const));
}

/** Every path to a value inside the plain parts of `value` (8 levels at most), shallow first. */
function paths(value: unknown, prefix: readonly (string | number)[] = []): (string | number)[][] {
  if (!isPlain(value) || prefix.length >= 8) return [];
  const keys: (string | number)[] = Array.isArray(value) ? value.map((_v, i) => i) : Object.keys(value);
  return keys.flatMap((key) => {
    const child = (value as Record<string | number, unknown>)[key];
    return [[...prefix, key], ...paths(child, [...prefix, key])];
  });
}

function setOwn(target: object, key: string | number, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Sets `value` at `at` inside `root` (a copy), creating nothing along the way. */
function setAt(root: unknown, at: readonly (string | number)[], value: unknown): void {
  let node = root as Record<string | number, unknown>;
  for (const key of at.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  setOwn(node, at[at.length - 1], value);
}

/** A short, readable description of a value: deep nesting and long strings abbreviated. */
export function describeValue(value: unknown, depth = 0): string {
  if (typeof value === 'string')
    return value.length > 80
      ? `${JSON.stringify(value.slice(0, 40))}…(${value.length} chars)`
      : JSON.stringify(value);
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value !== 'object' || value === null) return String(value);
  if (depth >= 4) return Array.isArray(value) ? '[…deep]' : '{…deep}';
  if (Array.isArray(value)) return `[${value.map((v) => describeValue(v, depth + 1)).join(', ')}]`;
  if (!isPlain(value)) return `<${value.constructor.name}>`;
  const entries = Object.entries(value).map(
    ([k, v]) => `${JSON.stringify(k)}: ${describeValue(v, depth + 1)}`,
  );
  return `{${entries.join(', ')}}`;
}

/** A short, readable description of a mutation for the report of a failure. */
export function describeMutation(m: Mutation): string {
  const { value, ...where } = m;
  return `${JSON.stringify(where)} = ${describeValue(value)}`;
}

/** `props` with the mutations applied, in order; `knownKeys` are the keys the construct reads. */
export function applyMutations(
  props: Record<string, unknown>,
  mutations: readonly Mutation[],
  knownKeys: readonly string[],
): unknown {
  let result: unknown = copy(props);
  for (const m of mutations) {
    if (m.kind === 'whole') {
      result = m.value;
      continue;
    }
    if (!isPlain(result) || Array.isArray(result)) continue;
    const target: Record<string, unknown> = result;
    if (m.kind === 'known-key' && knownKeys.length > 0)
      setOwn(target, knownKeys[m.index % knownKeys.length], m.value);
    else if (m.kind === 'extra-key') setOwn(target, m.key, m.value);
    else if (m.kind === 'config' && knownKeys.includes('config'))
      setOwn(target, 'config', objectOf([[m.section, objectOf([[m.option, m.value]])]]));
    else if (m.kind === 'path') {
      const all = paths(target);
      if (all.length > 0) setAt(target, all[m.index % all.length], m.value);
    }
  }
  return result;
}
