import { isDependable, propsProblems, PropsSpec, required, Rule, Rules } from '../../lib/model';
import { CacheEndpoint, DatabaseEndpoint, MessagingEndpoint } from './endpoints';
import { secretRefRule } from '../kube/building-block-rules';
import { shown } from '../../lib/graph';

/**
 * Rules for the inputs constructs take from each other (endpoints, Secret references, other
 * services): what a JavaScript or YAML user could get wrong, checked at the boundary of the
 * construct that receives them and of `externalDatabase(...)` and its siblings.
 */

/**
 * A host name or IPv4 address clients connect to: not empty, and nothing a URL, a file or a
 * script could misread (it goes into connection URLs and the Jobs' shell commands).
 */
const host: Rule = Rules.given((value, name) =>
  typeof value === 'string' && /^[A-Za-z0-9]([-A-Za-z0-9.]*[A-Za-z0-9])?$/.test(value) && value.length <= 253
    ? []
    : [
        `${name} ${shown(value)} is not a host name or IPv4 address; give one such as 'galera.example.com' or '10.0.0.5'`,
      ],
);

/** A user name for the broker's management API (it goes into a Job's shell command). */
const userName: Rule = Rules.given((value, name) =>
  typeof value === 'string' && /^[A-Za-z0-9_.@-]{1,64}$/.test(value)
    ? []
    : [
        `${name} ${shown(value)} is not a user name; use letters, digits, '_', '.', '@' and '-', e.g. 'admin'`,
      ],
);

export const DATABASE_ENDPOINT: PropsSpec<Omit<DatabaseEndpoint, 'dependencyTargets'>> = {
  host: required(host, 'the database host'),
  port: required(Rules.port(), 'the port, e.g. 3306'),
  adminPassword: required(secretRefRule, "the administrator's password as { secretName, key }"),
  clientImage: Rules.image(),
};

export const MESSAGING_ENDPOINT: PropsSpec<Omit<MessagingEndpoint, 'dependencyTargets'>> = {
  host: required(host, 'the RabbitMQ host'),
  port: required(Rules.port(), 'the port, e.g. 5672'),
  adminUser: required(userName, "the administrator's user name"),
  adminPassword: required(secretRefRule, "the administrator's password as { secretName, key }"),
};

/** `host:port` of one memcached server. */
const cacheServer: Rule = (value, name) => {
  const match = typeof value === 'string' ? /^(.*):(\d{1,5})$/.exec(value) : null;
  if (!match) return [`${name} ${shown(value)} is not host:port; write e.g. 'memcached-0.memcached:11211'`];
  return [...host(match[1], `${name} host`), ...Rules.port()(Number(match[2]), `${name} port`)];
};

export const CACHE_ENDPOINT: PropsSpec<Omit<CacheEndpoint, 'dependencyTargets'>> = {
  servers: required(Rules.list(cacheServer, { min: 1 }), "every memcached server as 'host:port'"),
};

/**
 * An object with `dependencyTargets` and the endpoint's fields, checked by `spec`. Only the fields
 * consumers read: a deployed MariaDB carries many more.
 */
function endpoint<P>(spec: PropsSpec<P>, what: string): Rule {
  return Rules.given((value, name) =>
    isDependable(value)
      ? propsProblems(value, spec, { what: name, prefix: `${name}.`, otherKeysAllowed: true })
      : [`${name} is not ${what}; pass ${what}`],
  );
}

/** A database input: a MariaDB or `externalDatabase({ host, adminPassword })`. */
export const databaseRule: Rule = endpoint(DATABASE_ENDPOINT, 'a MariaDB or externalDatabase(...)');
/** A message bus input: a RabbitMQ or `externalMessaging({ host, adminUser, adminPassword })`. */
export const messagingRule: Rule = endpoint(MESSAGING_ENDPOINT, 'a RabbitMQ or externalMessaging(...)');
/** A cache input: a Memcached or `externalCache({ servers })`. */
export const cacheRule: Rule = endpoint(CACHE_ENDPOINT, 'a Memcached or externalCache(...)');

/** Another service a construct depends on (Keystone, Glance, …): anything that can be depended on. */
export function serviceRule(what: string): Rule {
  return Rules.given((value, name) => (isDependable(value) ? [] : [`${name} is not ${what}; pass ${what}`]));
}

/** The input services most OpenStack services take, for their props specs. */
export const COMMON_INPUT_RULES = {
  keystone: serviceRule('the Keystone service'),
  database: databaseRule,
  messaging: messagingRule,
  cache: cacheRule,
} as const;

/** What to pass for the inputs most services share, worded once for every service's errors. */
export const COMMON_INPUT_HINTS = {
  keystone: 'the Keystone service',
  database: 'a MariaDB or externalDatabase(...)',
  messaging: 'a RabbitMQ or externalMessaging(...)',
  cache: 'a Memcached or externalCache(...)',
} as const;

/**
 * The hints of the named common inputs, in the order given, for {@link requireInputs}; spread it
 * and add the service's own inputs.
 *
 * @example
 * requireInputs(this, props, { ...commonInputHints('keystone', 'database', 'cache'), gnocchi: 'the Gnocchi service' });
 */
export function commonInputHints<K extends keyof typeof COMMON_INPUT_HINTS>(
  ...names: K[]
): Pick<typeof COMMON_INPUT_HINTS, K> {
  return pick(COMMON_INPUT_HINTS, names);
}

/**
 * The rules of the named common inputs, in the order given, for a service descriptor's `props`:
 * spread it and add the rules of the service's own props. Names the same inputs as the
 * descriptor's `commonInputHints(...)`, and any optional common input the service also takes.
 */
export function commonInputRules<K extends keyof typeof COMMON_INPUT_RULES>(
  ...names: K[]
): Pick<typeof COMMON_INPUT_RULES, K> {
  return pick(COMMON_INPUT_RULES, names);
}

/** The entries of `table` named by `names`, in that order. */
function pick<T extends object, K extends keyof T>(table: T, names: readonly K[]): Pick<T, K> {
  const picked: Partial<Pick<T, K>> = {};
  for (const name of names) picked[name] = table[name];
  return picked as Pick<T, K>;
}
