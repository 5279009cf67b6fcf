/**
 * oslo.config files (keystone.conf, nova.conf, …) from typed options: a schema per file lists the
 * sections and options Stackwright knows, user overrides are merged over the service's defaults,
 * and unknown sections or options are rejected instead of silently ignored by the service.
 */

/** The type of one option. `secret` options are never rendered: they reach the pod from a Secret. */
export type OsloOptionType = 'string' | 'int' | 'float' | 'bool' | 'list' | 'secret';

export type OsloSchema = Readonly<Record<string, Readonly<Record<string, OsloOptionType>>>>;

export type OsloValue = string | number | boolean | readonly string[];

/** Option values by section and option name, e.g. `{ DEFAULT: { debug: true } }`. */
export type OsloValues = Readonly<Record<string, Readonly<Record<string, OsloValue>>>>;

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

/** Problems with user-supplied values against a schema (empty when valid), each with the fix. */
export function osloProblems(file: string, schema: OsloSchema, values: OsloValues): string[] {
  const problems: string[] = [];
  for (const [section, options] of Object.entries(values)) {
    const known = schema[section];
    if (!known) {
      problems.push(
        `${file}: unknown section [${section}]; known sections: ${Object.keys(schema).sort().join(', ')}`,
      );
      continue;
    }
    for (const [option, value] of Object.entries(options)) {
      const type = known[option];
      if (!type) {
        problems.push(
          `${file}: unknown option "${option}" in [${section}]; known options: ${Object.keys(known).sort().join(', ')}`,
        );
      } else if (type === 'secret') {
        problems.push(
          `${file}: [${section}] ${option} carries a credential and cannot be set as plain text; it is read from a Secret`,
        );
      } else if (!matchesType(value, type)) {
        problems.push(
          `${file}: [${section}] ${option} must be ${describe(type)}, got ${JSON.stringify(value)}`,
        );
      }
    }
  }
  return problems;
}

/** Renders INI text: `[DEFAULT]` first, then sections and options sorted, so output is stable. */
export function renderOslo(values: OsloValues): string {
  const sections = Object.keys(values).sort((a, b) =>
    a === 'DEFAULT' ? -1 : b === 'DEFAULT' ? 1 : a.localeCompare(b),
  );
  const blocks = sections
    .filter((section) => Object.keys(values[section]).length > 0)
    .map((section) => {
      const lines = Object.keys(values[section])
        .sort()
        .map((option) => `${option} = ${formatValue(values[section][option])}`);
      return [`[${section}]`, ...lines].join('\n');
    });
  return blocks.join('\n\n') + '\n';
}

/**
 * The environment variable through which oslo.config (>= 6.0, environment source) reads an
 * option, used for options whose value comes from a Secret: `[database] connection` ->
 * `OS_DATABASE__CONNECTION`.
 */
export function osloEnvName(section: string, option: string): string {
  return `OS_${section.toUpperCase()}__${option.toUpperCase()}`;
}

function formatValue(value: OsloValue): string {
  if (Array.isArray(value)) return value.join(',');
  return String(value);
}

function matchesType(value: OsloValue, type: OsloOptionType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'int':
      return typeof value === 'number' && Number.isInteger(value);
    case 'float':
      return typeof value === 'number';
    case 'bool':
      return typeof value === 'boolean';
    case 'list':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
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
    secret: 'a Secret',
  }[type];
}
