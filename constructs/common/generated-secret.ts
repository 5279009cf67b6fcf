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
import { dataKeyRule } from './input-rules';
import { shellWord } from './shell-word';
import { SchedulingKey } from '../../lib/scheduling';
import { JobComponent } from './job-component';
import { SecretRef } from './secret-ref';
import { SecretWriter } from './secret-writer';

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
}

const GENERATED_SECRET_PROPS: PropsSpec<GeneratedSecretProps> = {
  operatorKey: required(
    schedulingKeyRule,
    'the operator key of the service, e.g. SchedulingKey.OPERATOR_KEYSTONE',
  ),
  keys: required(Rules.list(dataKeyRule, { min: 1, max: 64 }), "the keys to generate, e.g. ['password']"),
  format: Rules.oneOf('hex', 'fernet'),
  secretName: Rules.dnsSubdomain(),
};

/**
 * A Secret generated inside the cluster by a Job (random hex values), created only when it does not
 * exist yet, so re-deploys keep credentials stable and the synthesised YAML never carries them.
 * Dependants use a `completed` edge.
 */
export class GeneratedSecret extends JobComponent {
  readonly secretName: string;

  constructor(scope: Construct, id: string, props: GeneratedSecretProps) {
    const problems = propsProblems(props, GENERATED_SECRET_PROPS);
    if (problems.length > 0) throw new ValidationError(`${scope.node.path}/${id}`, problems);
    const cloud = Cloud.of(scope);
    const writer = SecretWriter.of(cloud);
    const secretName = shellWord(props.secretName ?? `${scope.node.id}-${id}`, 'secretName');
    const generator =
      props.format === 'fernet' ? "openssl rand 32 | base64 | tr '+/' '-_'" : 'openssl rand -hex 24';
    const literals = props.keys
      .map((key) => `--from-literal=${shellWord(key, 'key')}="$(${generator})"`)
      .join(' ');
    super(scope, id, {
      operatorKey: props.operatorKey,
      image: cloud.toolboxImage,
      serviceAccountName: writer.serviceAccountName,
      command: [
        '/bin/sh',
        '-ec',
        `kubectl get secret ${secretName} >/dev/null 2>&1 || kubectl create secret generic ${secretName} ${literals}`,
      ],
    });
    this.secretName = secretName;
    this.dependsOn(writer, 'ready');
  }

  /** A reference to one generated key. */
  ref(key: string): SecretRef {
    return { secretName: this.secretName, key };
  }
}
