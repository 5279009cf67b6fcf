import { dnsLabelProblems, dnsSubdomainProblems, labelsProblems, shown } from '../../graph';
import { imageProblems, imageTagProblems } from './image';
import { unknownKeyProblems } from './known-keys';
import { portProblems } from './port';
import { quantityProblems } from './quantity';
import { NumberRange, rangeProblems } from './range';
import { singleLineProblems } from './single-line';

/**
 * The check of one prop: its problems (empty when valid), each starting with `name`, the prop's
 * path in the props (`cells[1].conductorReplicas`). `undefined` means "not given" (the default
 * applies): the rules below pass it, except {@link required}.
 */
export type Rule = (value: unknown, name: string) => string[];

/** `rule` for given values; `undefined` (not given) passes. */
function optional(rule: Rule): Rule {
  return (value, name) => (value === undefined ? [] : rule(value, name));
}

/**
 * The rule of every prop of `P`. The mapped type makes a new prop a compile error until it has its
 * rule, so no prop escapes the boundary check; the keys are also the known keys that plain
 * JavaScript and YAML input is held to.
 */
export type PropsSpec<P> = { readonly [K in keyof Required<P>]: Rule };

/** How {@link propsProblems} reads the props. */
export interface PropsCheckOptions {
  /** The object's name in messages. @default 'props' */
  readonly what?: string;
  /** Put before each prop's name: `compute.` for nested options. @default '' */
  readonly prefix?: string;
  /**
   * Keys the spec does not list are another check's business: a base class checking its part of
   * a subclass' props (the subclass checks the whole). @default false
   */
  readonly otherKeysAllowed?: boolean;
}

/** The problems of `props` against `spec`: not an object, unknown keys, and every rule's. */
export function propsProblems<P>(
  props: unknown,
  spec: PropsSpec<P>,
  options: PropsCheckOptions = {},
): string[] {
  const what = options.what ?? 'props';
  const given = props === undefined ? {} : props;
  if (typeof given !== 'object' || given === null || Array.isArray(given))
    return unknownKeyProblems(given, [], what);
  const values = given as Record<string, unknown>;
  const rules = spec as Readonly<Record<string, Rule>>;
  const keys = Object.keys(rules);
  const problems = options.otherKeysAllowed ? [] : unknownKeyProblems(values, keys, what);
  // A loop, not flatMap: every construct checks its props, and nearly every rule finds nothing.
  const prefix = options.prefix ?? '';
  for (const key of keys) {
    const found = rules[key](values[key], prefix + key);
    if (found.length > 0) problems.push(...found);
  }
  return problems;
}

/** The deepest nesting of objects and lists a prop may have: far beyond any real Kubernetes object. */
export const MAX_NESTING = 32;

/** A problem when `value` nests objects or lists deeper than {@link MAX_NESTING}. */
export function nestingProblems(value: unknown, name: string): string[] {
  return nestedDeeperThanAllowed(value, 1)
    ? [`${name} is nested more than ${MAX_NESTING} levels deep; give the object as Kubernetes defines it`]
    : [];
}

/** True when `node`, at `depth`, holds objects deeper than allowed: recursion bounded by the limit itself. */
function nestedDeeperThanAllowed(node: unknown, depth: number): boolean {
  if (typeof node !== 'object' || node === null) return false;
  if (depth > MAX_NESTING) return true;
  for (const child of Object.values(node)) if (nestedDeeperThanAllowed(child, depth + 1)) return true;
  return false;
}

/** A value that must be given (`undefined` and `null` are problems), then checked by `rule`. */
export function required(rule: Rule, hint: string): Rule {
  return (value, name) =>
    value === undefined || value === null ? [`${name} is required; pass ${hint}`] : rule(value, name);
}

/** The building blocks of a {@link PropsSpec}; each passes a value that is not given. */
export const Rules = {
  /** A whole number in range: replicas, workers, sizes anything is built from. */
  count: (range: Omit<NumberRange, 'integer'>): Rule =>
    optional((value, name) => rangeProblems(name, value, range)),
  /** A finite number in range, fractions allowed. */
  number: (range: Omit<NumberRange, 'integer'>): Rule =>
    optional((value, name) => rangeProblems(name, value, { ...range, integer: false })),
  /** A port, 1–65535. */
  port: (): Rule => optional((value, name) => portProblems(value, name)),
  /** `true` or `false`. */
  bool: (): Rule =>
    optional((value, name) =>
      typeof value === 'boolean' ? [] : [`${name} must be true or false, got ${shown(value)}`],
    ),
  /** Text on one line (it may end up in a rendered file). */
  text: (): Rule => optional((value, name) => singleLineProblems(value, name)),
  /** Text on one line that is not empty. */
  nonEmptyText: (): Rule =>
    optional((value, name) =>
      value === '' ? [`${name} is empty; give a value`] : singleLineProblems(value, name),
    ),
  /** A DNS-1123 label, at most `maxLength` long (names derived from it need the rest). */
  dnsLabel: (maxLength = 63): Rule => optional((value, name) => dnsLabelProblems(value, name, maxLength)),
  /** A DNS-1123 subdomain (Secret, ConfigMap, StorageClass names). */
  dnsSubdomain: (): Rule => optional((value, name) => dnsSubdomainProblems(value, name)),
  /** A Kubernetes quantity such as `10Gi`. */
  quantity: (): Rule => optional((value, name) => quantityProblems(value, name)),
  /** A container image reference. */
  image: (): Rule => optional((value, name) => imageProblems(value, name)),
  /** An image tag, e.g. a release `2025.1`. */
  imageTag: (): Rule => optional((value, name) => imageTagProblems(value, name)),
  /** Labels (keys and values by Kubernetes' rules). */
  labels: (): Rule => optional((value, name) => labelsProblems(value, name)),
  /** One of a fixed set of values. */
  oneOf: (...allowed: readonly unknown[]): Rule =>
    optional((value, name) =>
      allowed.includes(value)
        ? []
        : [`${name} must be one of ${allowed.map((a) => shown(a)).join(', ')}, got ${shown(value)}`],
    ),
  /** A nested options object, held to its own spec. */
  object: <P>(spec: PropsSpec<P>): Rule =>
    optional((value, name) => propsProblems(value, spec, { what: name, prefix: `${name}.` })),
  /** A list whose items each satisfy `item`, with at most `max` items (counted before the items are read). */
  list: (item: Rule, options: { readonly min?: number; readonly max?: number } = {}): Rule =>
    optional((value, name) => {
      if (!Array.isArray(value)) return [`${name} must be a list, got ${shown(value)}`];
      if (options.max !== undefined && value.length > options.max)
        return [`${name} has ${value.length} items; give at most ${options.max}`];
      if (options.min !== undefined && value.length < options.min)
        return [`${name} has ${value.length} items; give at least ${options.min}`];
      return value.flatMap((v, i) => item(v, `${name}[${i}]`));
    }),
  /** An object used as a map (environment, Secret references): every key by `key`, every value by `value`. */
  record: (value: Rule, key: Rule = () => []): Rule =>
    optional((given, name) => {
      if (typeof given !== 'object' || given === null || Array.isArray(given))
        return [`${name} must be an object, got ${shown(given)}`];
      const problems: string[] = [];
      for (const k of Object.keys(given)) {
        problems.push(
          ...key(k, `${name} key`),
          ...value((given as Record<string, unknown>)[k], `${name}.${k}`),
        );
      }
      return problems;
    }),
  /**
   * Kubernetes objects typed by the caller and passed through as they are (EnvVars, Volumes,
   * PolicyRules): a list of objects, nested at most {@link MAX_NESTING} deep, so that what copies
   * and renders them cannot run out of stack.
   */
  kubernetesObjects: (): Rule =>
    optional((value, name) => {
      if (!Array.isArray(value)) return [`${name} must be a list of Kubernetes objects, got ${shown(value)}`];
      return value.flatMap((item, i) =>
        typeof item !== 'object' || item === null || Array.isArray(item)
          ? [`${name}[${i}] must be an object, got ${shown(item)}`]
          : nestingProblems(item, `${name}[${i}]`),
      );
    }),
  /** Either of two rules (a count or a list of cells): `pick` chooses by the value. */
  either: (pick: (value: unknown) => boolean, whenTrue: Rule, otherwise: Rule): Rule =>
    optional((value, name) => (pick(value) ? whenTrue(value, name) : otherwise(value, name))),
  /** A custom check of a given value. */
  given: (rule: Rule): Rule => optional(rule),
  /**
   * A known key whose value another check holds (input services by `requireInputs`, oslo.config
   * options by their schema at synthesis).
   */
  checkedElsewhere: (): Rule => () => [],
} as const;
