/**
 * oslo.config files (keystone.conf, nova.conf, …) from typed options: a schema per file lists the
 * sections and options a service reads, user overrides are merged over the service's defaults,
 * unknown, mistyped, out-of-range and deprecated options are rejected at synthesis instead of
 * being ignored (or misread) by the service, and values are written the way oslo.config parses them.
 *
 * The OpenStack services' schemas are generated from the services' own option definitions (see
 * `openstack-option-schema.ts`); a hand-written schema (`{ DEFAULT: { debug: 'bool' } }`) serves
 * files of services without generated data, such as an in-house service.
 */

/**
 * The type of one option, as oslo.config parses it. `multi` is a MultiStrOpt (one `key = value`
 * line per value); `list` a ListOpt (one comma-separated line); `dict` a DictOpt (`k1:v1,k2:v2`).
 * `secret` options are never rendered: they reach the pod from a Secret.
 */
export type OsloOptionType = 'string' | 'int' | 'float' | 'bool' | 'list' | 'dict' | 'multi' | 'secret';

/** An option as oslo.config defines it: what validation and rendering need. */
export interface OsloOptionSpec {
  readonly type: OsloOptionType;
  /** oslo.config's own name of the type, e.g. `integer value`, `multi valued`. @default - from `type` */
  readonly osloType?: string;
  /** The option's help text (its first paragraph). @default - none */
  readonly help?: string;
  /** The only values accepted. @default - any value of the type */
  readonly choices?: readonly (string | number | boolean | null)[];
  /** @default - no minimum */
  readonly min?: number;
  /** @default - no maximum */
  readonly max?: number;
  /** A credential: never rendered as plain text, it is read from a Secret. @default false */
  readonly secret?: boolean;
  /** A list written `['a', 'b']` (a ListOpt with bounds and quoted items). @default false */
  readonly bracketed?: boolean;
  /** Older names oslo.config still reads for this option. @default - none */
  readonly deprecatedNames?: readonly { readonly section: string; readonly name: string }[];
  /** The option will be removed; the reason its project gives (or `true`). @default - not deprecated */
  readonly deprecatedForRemoval?: string | true;
}

/** Options by section: a bare type (hand-written schemas) or the full spec (generated schemas). */
export type OsloSchema = Readonly<Record<string, Readonly<Record<string, OsloOptionType | OsloOptionSpec>>>>;

export type OsloScalar = string | number | boolean;

/** A scalar, a list (ListOpt, MultiStrOpt) or a mapping (DictOpt). */
export type OsloValue = OsloScalar | readonly string[] | Readonly<Record<string, OsloScalar>>;

/** Option values by section and option name, e.g. `{ DEFAULT: { debug: true } }`. */
export type OsloValues = Readonly<Record<string, Readonly<Record<string, OsloValue>>>>;

import { isPasswordName, isSingleLine, isSubstitution, Rule, Rules, urlsWithPassword } from '../../lib/model';
import { shown } from '../../lib/graph';
import { optionTexts } from './option-texts';

/** Overlays `overrides` on `defaults`, option by option. */
export function mergeOslo(defaults: OsloValues, overrides: OsloValues = {}): OsloValues {
  const merged: Record<string, Record<string, OsloValue>> = {};
  for (const source of [defaults, overrides]) {
    for (const [section, options] of Object.entries(source)) {
      merged[section] = { ...(merged[section] ?? {}), ...options };
    }
  }
  return merged;
}

/** The full spec of a schema entry. */
export function optionSpec(entry: OsloOptionType | OsloOptionSpec): OsloOptionSpec {
  return typeof entry === 'string' ? { type: entry, secret: entry === 'secret' } : entry;
}

/**
 * Problems with user-supplied values against a schema (empty when valid), each naming the option,
 * what oslo.config expects (its type and help text) and the fix.
 */
export function osloProblems(file: string, schema: OsloSchema, values: OsloValues): string[] {
  if (!isPlainObject(values))
    return [
      `${file}: the options must be an object of sections, e.g. { DEFAULT: { debug: true } }, got ${shown(values)}`,
    ];
  const problems: string[] = [];
  for (const [section, options] of Object.entries(values)) {
    if (!isPlainObject(options)) {
      problems.push(`${file}: [${section}] must be an object of option: value, got ${shown(options)}`);
      continue;
    }
    for (const [option, value] of Object.entries(options)) {
      const entry = schema[section]?.[option];
      if (entry === undefined) {
        problems.push(`${file}: ${unknownOption(schema, section, option)}`);
        continue;
      }
      const spec = optionSpec(entry);
      const problem = valueProblem(spec, value);
      if (problem)
        problems.push(`${file}: [${section}] ${option} ${problem}${explain(schema, section, option)}`);
    }
  }
  return problems;
}

/** Why `[section] option` is not accepted, with the option's new name when it has one. */
function unknownOption(schema: OsloSchema, section: string, option: string): string {
  const renamed = deprecatedIndex(schema).get(`${section}\0${option}`);
  if (renamed) {
    return (
      `[${section}] ${option} is a deprecated name of [${renamed.section}] ${renamed.name}; ` +
      `set [${renamed.section}] ${renamed.name} instead${explain(schema, renamed.section, renamed.name)}`
    );
  }
  const elsewhere = Object.keys(schema)
    .filter((s) => s !== section && schema[s][option] !== undefined)
    .sort();
  if (elsewhere.length > 0) {
    return `unknown option "${option}" in [${section}]; it is an option of ${elsewhere.map((s) => `[${s}]`).join(', ')}`;
  }
  if (!schema[section]) {
    return `unknown section [${section}]; the service reads ${Object.keys(schema).length} sections, e.g. ${closest(Object.keys(schema), section)}`;
  }
  return `unknown option "${option}" in [${section}] (not defined by the service, or removed); [${section}] has ${closest(Object.keys(schema[section]), option)}`;
}

/** Up to five names sharing the longest prefix with `name`, to point at a likely typo. */
function closest(names: readonly string[], name: string): string {
  const shared = (a: string) => {
    let n = 0;
    while (n < a.length && n < name.length && a[n] === name[n]) n++;
    return n;
  };
  return [...names]
    .sort((a, b) => shared(b) - shared(a) || a.localeCompare(b))
    .slice(0, 5)
    .join(', ');
}

const deprecatedIndexes = new WeakMap<OsloSchema, Map<string, { section: string; name: string }>>();

/** `section\0old name` → the option that took the name over. */
function deprecatedIndex(schema: OsloSchema): Map<string, { section: string; name: string }> {
  let index = deprecatedIndexes.get(schema);
  if (!index) {
    index = new Map();
    for (const [section, options] of Object.entries(schema)) {
      for (const [name, entry] of Object.entries(options)) {
        for (const old of optionSpec(entry).deprecatedNames ?? []) {
          const key = `${old.section}\0${old.name}`;
          // A current option of that name wins over an old alias.
          if (schema[old.section]?.[old.name] === undefined) index.set(key, { section, name });
        }
      }
    }
    deprecatedIndexes.set(schema, index);
  }
  return index;
}

function valueProblem(spec: OsloOptionSpec, value: OsloValue): string | undefined {
  if (spec.secret || spec.type === 'secret') {
    return 'carries a credential and cannot be set as plain text; it is read from a Secret';
  }
  if (spec.deprecatedForRemoval) {
    const why = spec.deprecatedForRemoval === true ? '' : ` (${spec.deprecatedForRemoval})`;
    return `is deprecated for removal${why}; remove the override`;
  }
  if (!matchesType(value, spec.type)) return `must be ${describe(spec.type)}, got ${shown(value)}`;
  const items: readonly OsloScalar[] = Array.isArray(value)
    ? (value as readonly string[])
    : typeof value === 'object'
      ? []
      : [value as OsloScalar];
  for (const item of items) {
    if (spec.choices && spec.choices.length > 0 && !spec.choices.includes(item)) {
      return `must be one of ${spec.choices.map((c) => JSON.stringify(c)).join(', ')}, got ${shown(item)}`;
    }
    if (typeof item === 'number') {
      if (spec.min !== undefined && item < spec.min) return `must be >= ${spec.min}, got ${item}`;
      if (spec.max !== undefined && item > spec.max) return `must be <= ${spec.max}, got ${item}`;
    }
  }
  return undefined;
}

/** The option's oslo.config type and help, appended to a problem. */
function explain(schema: OsloSchema, section: string, option: string): string {
  const spec = { ...optionTexts(schema, section, option), ...optionSpec(schema[section][option]) };
  const parts = [`type: ${spec.osloType ?? describe(spec.type)}`];
  if (spec.help) parts.push(`help: ${spec.help}`);
  return ` (${parts.join('; ')})`;
}

/**
 * Renders INI text as oslo.config reads it: `[DEFAULT]` first, then sections and options sorted,
 * so output is stable. Lists are comma-joined, a multi-valued option (`multi`) is one line per
 * value, a dict is `k1:v1,k2:v2`, a bracketed list `['a', 'b']`. Without a schema entry, arrays
 * are comma-joined and objects written as dicts.
 */
export function renderOslo(values: OsloValues, schema: OsloSchema = {}): string {
  assertRenderable(values);
  const sections = Object.keys(values).sort((a, b) =>
    a === 'DEFAULT' ? -1 : b === 'DEFAULT' ? 1 : a.localeCompare(b),
  );
  const blocks = sections
    .filter((section) => Object.keys(values[section]).length > 0)
    .map((section) => {
      const lines = Object.keys(values[section])
        .sort()
        .flatMap((option) => {
          const entry = schema[section]?.[option];
          return formatValue(values[section][option], entry ? optionSpec(entry) : undefined).map(
            (text) => `${option} = ${text}`,
          );
        });
      return [`[${section}]`, ...lines].join('\n');
    });
  return blocks.join('\n\n') + '\n';
}

/** A section or option name oslo.config reads back as that same name. */
const OSLO_NAME = /^[A-Za-z0-9_.-]+$/;

/**
 * What would not read back as written (empty when all renders): sections that are not objects, a
 * name that is not a plain word (`DEFAULT]`), a line break in a value (a new line is a new option
 * or section), a number that is not finite. Independent of the schema, so it runs at the construct
 * boundary, before a file is rendered; `renderOslo` refuses the same, whatever got past.
 */
export function osloRenderProblems(values: unknown, what: string): string[] {
  if (!isPlainObject(values))
    return [`${what} must be an object of sections, e.g. { DEFAULT: { debug: true } }, got ${shown(values)}`];
  const problems: string[] = [];
  for (const [section, options] of Object.entries(values)) {
    if (!OSLO_NAME.test(section)) {
      problems.push(
        `${what}: section name ${shown(section)} is not a plain word; use letters, digits, '_', '.' and '-'`,
      );
      continue;
    }
    if (!isPlainObject(options)) {
      problems.push(`${what}: [${section}] must be an object of option: value, got ${shown(options)}`);
      continue;
    }
    for (const [option, value] of Object.entries(options)) {
      if (!OSLO_NAME.test(option)) {
        problems.push(
          `${what}: option name ${shown(option)} in [${section}] is not a plain word; use letters, digits, '_', '.' and '-'`,
        );
        continue;
      }
      if (!isOsloShaped(value)) {
        problems.push(
          `${what}: [${section}] ${option} must be a string, number or boolean, or a list or dict of them, got ${shown(value)}`,
        );
        continue;
      }
      const bad = textsOf(value as OsloValue).find((text) => !isSingleLine(text));
      if (bad !== undefined)
        problems.push(
          `${what}: [${section}] ${option} ${shown(bad)} contains a line break or control character, which would start a new line or section of the file; put the value on one line`,
        );
      if (numbersOf(value as OsloValue).some((n) => !Number.isFinite(n)))
        problems.push(`${what}: [${section}] ${option} must be a finite number, got ${shown(value)}`);
      const secret = secretMaterialProblem(section, option, value as OsloValue);
      if (secret) problems.push(`${what}: [${section}] ${option} ${secret}`);
    }
  }
  return problems;
}

/** Keystone's `[auth] password` names the password auth plugin (a Python entry point), not a password. */
const NOT_PASSWORDS = new Set(['auth.password']);

/**
 * A password written as plain text into the file (and so into its ConfigMap): a URL with
 * `user:password@`, or a text value of an option named as a password. `$(VAR)` references, which
 * Stackwright's own connection URLs use, are not passwords.
 */
function secretMaterialProblem(section: string, option: string, value: OsloValue): string | undefined {
  const fix =
    `pass it from a Secret instead: envFromSecret(osloEnvName('${section}', '${option}'), { secretName, key }) ` +
    `(constructs/kube/secret-ref.ts) gives the pod ${osloEnvName(section, option)}, which oslo.config reads, ` +
    'the way Stackwright passes [database] connection';
  const urls = textsOf(value).flatMap(urlsWithPassword);
  if (urls.length > 0) {
    return `holds a password in plain text (${urls.join(', ')}), which would be rendered into a ConfigMap; ${fix}`;
  }
  if (
    typeof value === 'string' &&
    value !== '' &&
    !isSubstitution(value) &&
    isPasswordName(option) &&
    !NOT_PASSWORDS.has(`${section}.${option}`)
  ) {
    return `is a password, which would be rendered into a ConfigMap in plain text; ${fix}`;
  }
  return undefined;
}

/** The rule of a `config` prop: options that render as written (their schema is checked at synthesis). */
export const osloValuesRule: Rule = Rules.given((value, name) => osloRenderProblems(value, name));

/** Throws the problems of {@link osloRenderProblems}: a renderer no value can inject into. */
function assertRenderable(values: OsloValues): void {
  const problems = osloRenderProblems(values, 'oslo.config');
  if (problems.length > 0) throw new Error(problems.join('\n'));
}

/** A value oslo.config can hold: a scalar, or a list or dict of scalars (nothing nested further). */
function isOsloShaped(value: unknown): boolean {
  const scalar = (v: unknown) =>
    v === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof v);
  if (Array.isArray(value)) return value.every(scalar);
  if (isPlainObject(value)) return Object.values(value).every(scalar);
  return scalar(value);
}

/** Every text a value renders from: strings, list items, dict keys and values. */
function textsOf(value: OsloValue): string[] {
  if (Array.isArray(value)) return (value as readonly unknown[]).map(String);
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([k, v]) => [k, String(v)]);
  return [String(value)];
}

function numbersOf(value: OsloValue): number[] {
  const all = typeof value === 'object' && value !== null ? Object.values(value as object) : [value];
  return all.filter((v): v is number => typeof v === 'number');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The environment variable through which oslo.config (>= 6.0, environment source) reads an
 * option, used for options whose value comes from a Secret: `[database] connection` ->
 * `OS_DATABASE__CONNECTION`.
 */
export function osloEnvName(section: string, option: string): string {
  return `OS_${section.toUpperCase()}__${option.toUpperCase()}`;
}

/**
 * `values` as oslo.config's environment source reads them, one variable per option
 * (`{ placement: { auth_type: 'password' } }` -> `OS_PLACEMENT__AUTH_TYPE=password`), written as
 * in a file without a schema (a list comma-joined): for a Job whose options must be its own pod
 * spec's rather than a mounted file's.
 */
export function osloEnv(values: OsloValues): { name: string; value: string }[] {
  assertRenderable(values);
  return Object.keys(values)
    .sort()
    .flatMap((section) =>
      Object.keys(values[section])
        .sort()
        .map((option) => {
          const [text] = formatValue(values[section][option], undefined);
          return { name: osloEnvName(section, option), value: text };
        }),
    );
}

/** One or more value texts (several for a multi-valued option). */
function formatValue(value: OsloValue, spec: OsloOptionSpec | undefined): string[] {
  if (Array.isArray(value)) {
    const items = value as readonly string[];
    if (spec?.type === 'multi') return items.map(String);
    if (spec?.bracketed) return [`[${items.map((v) => `'${v}'`).join(', ')}]`];
    return [items.join(',')];
  }
  if (typeof value === 'object') {
    const dict = value as Readonly<Record<string, OsloScalar>>;
    return [
      Object.keys(dict)
        .sort()
        .map((k) => `${k}:${String(dict[k])}`)
        .join(','),
    ];
  }
  // oslo.config writes floats with a decimal point; `1` would also parse, `1.0` says what it is.
  if (typeof value === 'number' && spec?.type === 'float' && Number.isInteger(value))
    return [value.toFixed(1)];
  return [String(value)];
}

function matchesType(value: OsloValue, type: OsloOptionType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'int':
      return typeof value === 'number' && Number.isInteger(value);
    case 'float':
      return typeof value === 'number' && !Number.isNaN(value);
    case 'bool':
      return typeof value === 'boolean';
    case 'list':
    case 'multi':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
    case 'dict':
      return (
        typeof value === 'object' &&
        !Array.isArray(value) &&
        Object.values(value as object).every((v) => ['string', 'number', 'boolean'].includes(typeof v))
      );
    case 'secret':
      return false;
  }
}

function describe(type: OsloOptionType): string {
  return {
    string: 'a string',
    int: 'a whole number',
    float: 'a number',
    bool: 'true or false',
    list: 'a list of strings',
    multi: 'a list of strings (one line per value)',
    dict: 'an object of key: value pairs',
    secret: 'a Secret',
  }[type];
}
