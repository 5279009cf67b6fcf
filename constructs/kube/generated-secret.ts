import { Construct } from 'constructs';
import {
  Cloud,
  propsProblems,
  PropsSpec,
  required,
  Rules,
  schedulingKeyRule,
  ValidationError,
} from '../../lib/model';
import { dataKeyRule } from './building-block-rules';
import { SchedulingKey } from '../../lib/scheduling';
import { JobComponent } from './job-component';
import { addIfMissing, ifSecretExists, patchMissing } from './secret-key-fill';
import { SecretRef } from './secret-ref';

export interface GeneratedSecretProps {
  /** The operator key of the owning service (the Job is scheduled with it). */
  readonly operatorKey: SchedulingKey;
  /** Keys to fill with random values, e.g. `['password']`. */
  readonly keys: readonly string[];
  /**
   * How values are generated: `hex` (48 hex characters, for passwords) or `fernet` (32 random
   * bytes, URL-safe base64, for Keystone's fernet and credential keys).
   * @default 'hex'
   */
  readonly format?: 'hex' | 'fernet';
  /** The Secret's name. @default the component name */
  readonly secretName?: string;
  /**
   * Keys the Secret starts with a known value, besides the random ones: what a later change in the
   * cluster may replace (a service user's name, which its password rotation switches). Values are
   * DNS labels; like the random keys, they are written when the Secret is created or lacks them,
   * never over a value it holds.
   * @default - none
   */
  readonly initial?: Readonly<Record<string, string>>;
}

const GENERATORS: Readonly<Record<NonNullable<GeneratedSecretProps['format']>, string>> = {
  hex: 'openssl rand -hex 24',
  fernet: "openssl rand 32 | base64 | tr '+/' '-_'",
};

const GENERATED_SECRET_PROPS: PropsSpec<GeneratedSecretProps> = {
  operatorKey: required(
    schedulingKeyRule,
    'the operator key of the service, e.g. SchedulingKey.OPERATOR_KEYSTONE',
  ),
  keys: required(Rules.list(dataKeyRule, { min: 1, max: 64 }), "the keys to generate, e.g. ['password']"),
  format: Rules.oneOf('hex', 'fernet'),
  secretName: Rules.dnsSubdomain(),
  initial: Rules.record(Rules.dnsLabel(), dataKeyRule),
};

/**
 * A Secret generated inside the cluster by a Job (random hex values), created when it does not
 * exist yet, so re-deploys keep credentials stable and the synthesised YAML never carries them.
 * When it exists, the Job adds only the keys it lacks (a key a newer version of the construct
 * declares, e.g. a service user's `username`) and never changes a value it holds; the Job's name
 * hashes its spec, so a construct that declares a new key runs it again on the next deploy.
 * Dependants use a `completed` edge.
 *
 * The values never reach a process's argv: the shell's builtin `printf` writes the Secret (or the
 * patch) as JSON into `kubectl create -f -`'s (or `kubectl patch --patch-file /dev/stdin`'s) stdin
 * (`kubectl create secret --from-literal` would put them on kubectl's command line, readable in
 * `/proc` by anyone on the node); the Job reads the existing Secret's key names, not its values.
 *
 * The Job runs as its own ServiceAccount, which may read and patch only this Secret and create
 * Secrets; it cannot read any other credential of the cloud.
 */
export class GeneratedSecret extends JobComponent {
  readonly secretName: string;
  readonly keys: readonly string[];

  constructor(scope: Construct, id: string, props: GeneratedSecretProps) {
    const problems = propsProblems(props, GENERATED_SECRET_PROPS);
    // Once the props are well-formed: a key both random and given.
    if (problems.length === 0)
      for (const key of props.keys.filter((k) => props.initial !== undefined && k in props.initial))
        problems.push(`key '${key}' is in both keys and initial; a key is either random or given`);
    if (problems.length > 0) throw new ValidationError(`${scope.node.path}/${id}`, problems);
    const cloud = Cloud.of(scope);
    const secretName = props.secretName ?? `${scope.node.id}-${id}`;
    const generator = GENERATORS[props.format ?? 'hex'];
    const program = generatorProgram(secretName, props.keys, props.initial ?? {}, generator);
    super(scope, id, {
      operatorKey: props.operatorKey,
      image: cloud.toolboxImage,
      kubernetesAccess: [
        { apiGroups: [''], resources: ['secrets'], resourceNames: [secretName], verbs: ['get', 'patch'] },
        // RBAC cannot narrow `create` by name (the name is not known when it is authorised):
        // see docs/security.md for what that leaves.
        { apiGroups: [''], resources: ['secrets'], verbs: ['create'] },
      ],
      command: ['/bin/sh', '-ec', program],
    });
    this.secretName = secretName;
    this.keys = props.keys;
  }

  /** A reference to one generated key. */
  ref(key: string): SecretRef {
    return { secretName: this.secretName, key };
  }
}

/**
 * The generator's shell program: create the Secret with every key, or, when it exists, patch in
 * the keys it lacks. A random value is generated only for a key that is written.
 */
function generatorProgram(
  secretName: string,
  keys: readonly string[],
  initial: Readonly<Record<string, string>>,
  generator: string,
): string {
  const given = Object.entries(initial);
  const fields = [
    ...keys.map((key) => `"${key}":"%s"`),
    ...given.map(([key, value]) => `"${key}":"${value}"`),
  ];
  const values = keys.map(() => `"$(${generator})"`).join(' ');
  const manifest = `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"${secretName}"},"stringData":{${fields.join(',')}}}`;
  return [
    ifSecretExists(secretName),
    "  patch=''",
    ...keys.map((key) => `  ${addIfMissing(key, `$(printf '"${key}":"%s"' "$(${generator})")`)}`),
    ...given.map(([key, value]) => `  ${addIfMissing(key, `\\"${key}\\":\\"${value}\\"`)}`),
    `  ${patchMissing(secretName, 'stringData')}`,
    '  exit 0',
    'fi',
    `printf '${manifest}' ${values} | kubectl create -f -`,
  ].join('\n');
}
