import type * as pulumi from '@pulumi/pulumi';
import { homeNamespace, KubeObject } from '../graph';

/** The keys of one Kubernetes Secret and their values, e.g. `{ password: cfg.requireSecret('adminPassword') }`. */
export type SecretValues = Readonly<Record<string, pulumi.Input<string>>>;

/**
 * Credentials by Secret: the key is the Secret's name (`keystone-admin`, in the cloud's control
 * plane namespace unless the manifests hold it elsewhere) or `namespace/name`; the values become
 * the Secret's `stringData`. A Secret the manifests already contain gets these keys
 * (they win over the same keys in its `data`/`stringData`); any other is created as a bootstrap
 * object, so every component in its namespace waits for it.
 */
export type Credentials = Readonly<Record<string, SecretValues>>;

/** Where each credential goes: its Secret's identity, and whether the manifests already had it. */
export interface CredentialTarget {
  /** The key as given in `Credentials`. */
  readonly key: string;
  readonly namespace: string;
  readonly name: string;
  /** True when the Secret was added because the manifests did not contain it. */
  readonly added: boolean;
}

/**
 * Resolves credential keys against the manifests and adds an empty `Opaque` Secret for each one
 * that is missing; the values themselves are merged in at registration, so they never pass through
 * the plan (which is plain data and may be printed or snapshotted).
 */
export function placeCredentials(
  objects: readonly KubeObject[],
  keys: readonly string[],
): { objects: KubeObject[]; targets: CredentialTarget[] } {
  const secrets = objects.filter(isSecret);
  const home = homeNamespace(objects);
  const added: KubeObject[] = [];
  const targets = keys.map((key): CredentialTarget => {
    const slash = key.indexOf('/');
    const name = slash >= 0 ? key.slice(slash + 1) : key;
    let namespace = slash >= 0 ? key.slice(0, slash) : undefined;
    if (namespace === undefined) {
      const matching = secrets.filter((s) => s.metadata.name === name);
      if (matching.length > 1) {
        throw new Error(
          `credential "${key}" matches Secrets in several namespaces; write it as "<namespace>/${name}"`,
        );
      }
      // Else the control plane's namespace: a node agent reads its own copy, made from that one.
      namespace = matching[0]?.metadata.namespace ?? home;
      if (namespace === undefined) {
        throw new Error(
          `credential "${key}": cannot tell the cloud's namespace from the manifests (none, or several of the same size); write it as "<namespace>/${name}"`,
        );
      }
    }
    const exists = secrets.some((s) => s.metadata.name === name && s.metadata.namespace === namespace);
    if (!exists) {
      added.push({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, type: 'Opaque' });
    }
    return { key, namespace, name, added: !exists };
  });
  // Added Secrets go first: they are bootstrap objects, which is also where a reader looks for them.
  return { objects: [...added, ...objects], targets };
}

/**
 * The Secret's body with the credential values as `stringData`, each wrapped as a Pulumi secret, and
 * the same keys removed from `data` so the API server has one value per key.
 */
export function withCredentialValues(
  secret: KubeObject,
  values: SecretValues,
  asSecret: (value: pulumi.Input<string>) => pulumi.Input<string>,
): Record<string, unknown> {
  const data = { ...((secret.data as Record<string, string> | undefined) ?? {}) };
  const stringData: Record<string, unknown> = {
    ...((secret.stringData as Record<string, string> | undefined) ?? {}),
  };
  for (const [key, value] of Object.entries(values)) {
    delete data[key];
    stringData[key] = asSecret(value);
  }
  const body: Record<string, unknown> = { ...secret, stringData };
  if (Object.keys(data).length > 0) body.data = data;
  else delete body.data;
  return body;
}

function isSecret(o: KubeObject): boolean {
  return o.apiVersion === 'v1' && o.kind === 'Secret';
}
