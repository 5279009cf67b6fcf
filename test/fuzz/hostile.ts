import fc from 'fast-check';

/**
 * Hostile values, as plain JavaScript or YAML can pass them whatever the TypeScript types say:
 * numbers no count can be, strings no file can hold, the wrong type, keys that reach the prototype,
 * nesting deeper than any recursion should follow.
 */

/** Numbers that are not what a count, a port or a size can be. */
export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    NaN,
    Infinity,
    -Infinity,
    -1,
    -0,
    0,
    0.5,
    1.5,
    -0.0001,
    65536,
    2 ** 31,
    2 ** 53 + 2,
    1e21,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
  ),
  fc.double(),
  fc.integer(),
);

/** Names Kubernetes, the scheduler or JavaScript itself reserve. */
export const RESERVED_WORDS: readonly string[] = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'default',
  'kube-system',
  'kube-public',
  'kube-node-lease',
  'stackwright.io/component',
  'stackwright.io/needs',
  'node-role.kubernetes.io/control-plane',
  'kubernetes.io/hostname',
  'compute.yaook.cloud/hypervisor',
  'operator.yaook.cloud/any',
  'app.kubernetes.io/managed-by',
];

/** Strings no file, name or command line should take as they are. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\n',
    '\r\n',
    '\t',
    '\u0000',
    '\u001b[31m',
    '\u2028',
    '\ufeff',
    'a\nb = c',
    '[DEFAULT]\nx = y',
    '$(rm -rf /)',
    '${HOME}',
    "'; exit 1; '",
    '"',
    '`id`',
    '../../etc/passwd',
    '/',
    'ünïcødé-名前',
    '🙂',
    'UPPER_case',
    '-leading-dash',
    'trailing-dash-',
    'a'.repeat(64),
    'a'.repeat(254),
    '1e3',
    '10 GB',
    'NaN',
    'true',
    'null',
    ...RESERVED_WORDS,
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.integer({ min: 1_000, max: 200_000 }).map((n) => 'x'.repeat(n)),
);

/** Scalars of every type, including the ones YAML cannot write (`undefined`). */
export const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(
  hostileNumber,
  hostileString,
  fc.boolean(),
  fc.constantFrom(null, undefined),
);

/** An object with `key` as an own property, even `__proto__` (as `JSON.parse` or YAML makes it). */
export function objectWith(key: string, value: unknown): Record<string, unknown> {
  return objectOf([[key, value]]);
}

/** An object of `entries`, each an own property (a later key wins, as in YAML or JSON). */
export function objectOf(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of entries)
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  return object;
}

/** `{ a: { a: … } }` (or arrays) `depth` deep: deeper than any recursion should follow. */
export function nested(depth: number, asArray: boolean, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = asArray ? [value] : { a: value };
  return value;
}

/** Deep nesting, a few levels to far past the stack. */
export const deepValue: fc.Arbitrary<unknown> = fc
  .tuple(fc.constantFrom(3, 50, 1_000, 20_000), fc.boolean(), hostileScalar)
  .map(([depth, asArray, leaf]) => nested(depth, asArray, leaf));

/** Keys for objects: reserved, prototype and hostile ones, or plain words. */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...RESERVED_WORDS),
  hostileString.filter((s) => s.length < 300),
  fc.constantFrom('DEFAULT', 'database', 'replicas', 'image', 'config', 'a'),
);

/** Any hostile value: a scalar, an array, an object with hostile keys, deep nesting. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileScalar,
    deepValue,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.array(fc.tuple(hostileKey, tie('value')), { maxLength: 4 }).map((entries) => objectOf(entries)),
  ),
})).value;
