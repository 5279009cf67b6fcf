import { ReferenceCloudProps } from './reference-cloud';
import { OpenStackRelease } from '../lib/graph';
import { imageProblems } from '../lib/model';
import {
  OptionalServiceOptions,
  ReferenceCloudServices,
  ReferenceServiceName,
  SERVICE_OPTIONS,
} from './reference-cloud-services';

/** The config namespace of the program's keys (`stackwright:namespace`, …). */
export const CONFIG_NAMESPACE = 'stackwright';

/** What the Pulumi program reads from the stack config, typed and checked. */
export interface PulumiStackConfig {
  /** The reference cloud's options: namespace, release, images, labels, per-service options. */
  readonly cloud: ReferenceCloudProps & { readonly namespace: string };
  /**
   * Prefix of every Pulumi logical name.
   * @default - none
   */
  readonly resourcePrefix?: string;
}

/** Keys holding plain strings, and what they mean (for the "unknown key" hint). */
const STRING_KEYS = ['namespace', 'release', 'imageRegistry', 'toolboxImage', 'resourcePrefix'] as const;
/** Read by the program itself with `requireSecret`/`getSecret`; listed so they are not "unknown". */
const SECRET_KEYS = ['adminPassword', 'databasePassword'] as const;
const OBJECT_KEYS = ['labels', 'services'] as const;
const KNOWN_KEYS: readonly string[] = [...STRING_KEYS, ...OBJECT_KEYS, ...SECRET_KEYS];

/**
 * Reads the program's options from the stack config, as `pulumi.runtime.allConfig()` returns it
 * (full keys, object values as JSON text), and checks them before anything is built. Every
 * problem is reported at once, each naming the key and the command that fixes it:
 *
 *   stackwright:services.keystone.replicas must be a whole number >= 1, got "two";
 *   fix: pulumi config set --path 'stackwright:services.keystone.replicas' 2
 *
 * Keys of other namespaces (`kubernetes:context`, …) are not this program's business.
 */
export function parseStackConfig(config: Readonly<Record<string, string>>): PulumiStackConfig {
  const problems: string[] = [];
  const own = new Map<string, string>();
  for (const [key, value] of Object.entries(config)) {
    if (key.startsWith(`${CONFIG_NAMESPACE}:`)) own.set(key.slice(CONFIG_NAMESPACE.length + 1), value);
  }
  for (const key of own.keys()) {
    if (!KNOWN_KEYS.includes(key)) {
      problems.push(
        `${full(key)} is not an option of this program (known: ${KNOWN_KEYS.join(', ')}); fix: pulumi config rm ${full(key)}`,
      );
    }
  }
  const strings: Partial<Record<(typeof STRING_KEYS)[number], string>> = {};
  for (const key of STRING_KEYS) {
    const value = own.get(key);
    if (value === undefined) continue;
    if (value.trim() === '') problems.push(`${full(key)} is empty; fix: pulumi config rm ${full(key)}`);
    else strings[key] = value;
  }
  const labels = parseObject(own, 'labels', problems);
  const services = parseObject(own, 'services', problems);
  const cloud = {
    namespace: strings.namespace ?? 'openstack',
    ...definedOnly({
      // Checked by the Cloud against the releases the package supports, with the path and the fix.
      release: strings.release as OpenStackRelease | undefined,
      imageRegistry: strings.imageRegistry,
      toolboxImage: strings.toolboxImage,
      labels: labels === undefined ? undefined : parseLabels(labels, problems),
      services: services === undefined ? undefined : parseServices(services, problems),
    }),
  };
  if (problems.length > 0) {
    throw new Error(`invalid stack config:\n  ${problems.join('\n  ')}`);
  }
  return { cloud, ...definedOnly({ resourcePrefix: strings.resourcePrefix }) };
}

function full(path: string): string {
  return `${CONFIG_NAMESPACE}:${path}`;
}

/** A config value that must be an object (set with `--path`, or as JSON text). */
function parseObject(
  own: ReadonlyMap<string, string>,
  key: (typeof OBJECT_KEYS)[number],
  problems: string[],
): Record<string, unknown> | undefined {
  const text = own.get(key);
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = text;
  }
  if (isObject(value)) return value;
  problems.push(
    `${full(key)} must be an object, got ${JSON.stringify(text)}; fix: pulumi config rm ${full(key)}, then pulumi config set --path '${full(`${key}.<name>`)}' <value>`,
  );
  return undefined;
}

function parseLabels(labels: Record<string, unknown>, problems: string[]): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(labels)) {
    if (typeof value === 'string') result[name] = value;
    else
      problems.push(
        `${full(`labels.${name}`)} must be a string, got ${JSON.stringify(value)}; fix: pulumi config set --path '${full(`labels.${name}`)}' '${String(value)}' --type string`,
      );
  }
  return result;
}

function parseServices(services: Record<string, unknown>, problems: string[]): ReferenceCloudServices {
  const known = Object.keys(SERVICE_OPTIONS);
  const result: Partial<Record<ReferenceServiceName, OptionalServiceOptions>> = {};
  for (const [service, options] of Object.entries(services)) {
    const path = `services.${service}`;
    if (!isServiceName(service)) {
      problems.push(
        `${full(path)}: the reference cloud has no service ${JSON.stringify(service)} (services: ${known.join(', ')}); fix: pulumi config rm --path '${full(path)}'`,
      );
      continue;
    }
    if (!isObject(options)) {
      problems.push(
        `${full(path)} must be an object of options (${SERVICE_OPTIONS[service].join(', ')}), got ${JSON.stringify(options)}; fix: pulumi config rm --path '${full(path)}', then pulumi config set --path '${full(`${path}.<option>`)}' <value>`,
      );
      continue;
    }
    result[service] = parseServiceOptions(service, options, problems);
  }
  return result;
}

function parseServiceOptions(
  service: ReferenceServiceName,
  options: Record<string, unknown>,
  problems: string[],
): OptionalServiceOptions {
  const allowed: readonly string[] = SERVICE_OPTIONS[service];
  const parsed: { replicas?: number; image?: string; enabled?: boolean } = {};
  for (const [option, value] of Object.entries(options)) {
    const key = full(`services.${service}.${option}`);
    if (!allowed.includes(option)) {
      const why =
        option === 'enabled'
          ? `${service} is part of the minimal control plane and cannot be disabled`
          : `${service} has no option ${JSON.stringify(option)} (options: ${allowed.join(', ')})`;
      problems.push(`${key}: ${why}; fix: pulumi config rm --path '${key}'`);
    } else if (option === 'replicas') {
      const replicas = wholeNumber(value);
      if (replicas === undefined || replicas < 1)
        problems.push(
          `${key} must be a whole number >= 1, got ${JSON.stringify(value)}; fix: pulumi config set --path '${key}' 2`,
        );
      else parsed.replicas = replicas;
    } else if (option === 'image') {
      if (typeof value !== 'string' || imageProblems(value).length > 0)
        problems.push(
          `${key} must be an image reference such as registry.example.org/${service}:2025.1, got ${JSON.stringify(value)}; fix: pulumi config set --path '${key}' <registry>/<name>:<tag>`,
        );
      else parsed.image = value;
    } else {
      const enabled = flag(value);
      if (enabled === undefined)
        problems.push(
          `${key} must be true or false, got ${JSON.stringify(value)}; fix: pulumi config set --path '${key}' false`,
        );
      else parsed.enabled = enabled;
    }
  }
  return parsed;
}

/** `3`, or `"3"` (how a value set without `--type` may be stored); anything else is undefined. */
function wholeNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

/** `true`/`false`, also as text. */
function flag(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  return undefined;
}

function isServiceName(name: string): name is ReferenceServiceName {
  return Object.prototype.hasOwnProperty.call(SERVICE_OPTIONS, name);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Drops undefined values, so an unset key falls back to the Cloud's own default. */
function definedOnly<T extends object>(values: T): Partial<{ [K in keyof T]: Exclude<T[K], undefined> }> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<{
    [K in keyof T]: Exclude<T[K], undefined>;
  }>;
}
