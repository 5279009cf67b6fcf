import { PropsSpec, required, Rule, Rules, urlsWithPassword } from '../../lib/model';
import { SecretRef } from './secret-ref';
import { ResourceRequests } from './pod-template';
import { shown } from '../../lib/graph';

/**
 * Rules shared by the building blocks services are made of (ApiService, WorkerService,
 * JobComponent): what a service of one's own passes them.
 */

/** A key of a Secret's or ConfigMap's data (a file name when mounted), as Kubernetes accepts it. */
export const dataKeyRule: Rule = Rules.given((value, name) =>
  typeof value === 'string' && /^[-._a-zA-Z0-9]{1,253}$/.test(value)
    ? []
    : [
        `${name} ${shown(value)} is not a key of a Secret or ConfigMap; use letters, digits, '-', '_' and '.'`,
      ],
);

const SECRET_REF: PropsSpec<SecretRef> = {
  secretName: required(Rules.dnsSubdomain(), "the Secret's name"),
  key: required(dataKeyRule, 'the key inside the Secret'),
};

/** A reference to one key of a Secret, `{ secretName, key }`. */
export const secretRefRule: Rule = Rules.object(SECRET_REF);

/** A container command: a non-empty list of strings (they go into a YAML list, line breaks allowed). */
export const commandRule: Rule = required(
  Rules.list(
    Rules.given((value, name) =>
      typeof value === 'string' ? [] : [`${name} must be a string, got ${shown(value)}`],
    ),
    { min: 1 },
  ),
  "the command as a list of strings, e.g. ['keystone-manage', 'db_sync']",
);

/** An environment variable name as Kubernetes accepts it. */
export const envNameRule: Rule = Rules.given((value, name) =>
  typeof value === 'string' && /^[-._a-zA-Z][-._a-zA-Z0-9]*$/.test(value)
    ? []
    : [
        `${name} ${shown(value)} is not an environment variable name; use letters, digits, '_', '-' and '.', not starting with a digit`,
      ],
);

/** CPU and memory requests as Kubernetes quantities. */
export const requestsRule: Rule = Rules.object<ResourceRequests>({
  cpu: required(Rules.quantity(), "a CPU quantity, e.g. '100m'"),
  memory: required(
    Rules.given((value, name) =>
      typeof value === 'string' && /^\d+(Ki|Mi|Gi|Ti)?$/.test(value)
        ? []
        : [
            `${name} ${shown(value)} must be a whole number with an optional binary suffix (the limit is four times it), e.g. '256Mi'`,
          ],
    ),
    "a memory quantity, e.g. '256Mi'",
  ),
});

/** Configuration files: a mount path and file names with their text. */
export const configFilesRule: Rule = Rules.given((value, name) => {
  const config = value as { mountPath?: unknown; files?: unknown } | null;
  if (typeof config !== 'object' || config === null)
    return [`${name} must be { mountPath, files }, got ${shown(value)}`];
  return [
    ...(typeof config.mountPath === 'string' && config.mountPath.startsWith('/')
      ? []
      : [`${name}.mountPath ${shown(config.mountPath)} must be an absolute path, e.g. '/etc/keystone'`]),
    ...Rules.record(
      Rules.given((text, at) => {
        if (typeof text !== 'string') return [`${at} must be the file's text`];
        const urls = urlsWithPassword(text);
        return urls.length === 0
          ? []
          : [
              `${at} holds a password in plain text (${urls.join(', ')}), which would be rendered into a ConfigMap; ` +
                'keep it out of the file: give it to the pod from a Secret with envFromSecret(NAME, { secretName, key }) ' +
                '(constructs/kube/secret-ref.ts) and have the service read the variable',
            ];
      }),
      dataKeyRule,
    )(config.files, `${name}.files`),
  ];
});

/** An HTTP path for the probes: starts with '/'. */
export const healthPathRule: Rule = required(
  Rules.given((value, name) =>
    typeof value === 'string' && /^\/\S*$/.test(value)
      ? []
      : [`${name} ${shown(value)} must be an HTTP path such as '/healthcheck'`],
  ),
  "the health check's HTTP path, e.g. '/healthcheck'",
);
