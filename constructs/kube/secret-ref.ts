import { k8s } from 'cdk8s-plus-33';

/**
 * A reference to one key of a Kubernetes Secret. Stackwright never writes credentials into
 * synthesised YAML: pods read them from Secrets that a user provides or that a generator Job
 * creates in the cluster.
 */
export interface SecretRef {
  readonly secretName: string;
  readonly key: string;
}

/** An environment variable read from a Secret. */
export function envFromSecret(name: string, ref: SecretRef): k8s.EnvVar {
  return { name, valueFrom: { secretKeyRef: { name: ref.secretName, key: ref.key } } };
}
