/** The minimal shape of a Kubernetes object that the graph needs (plain JSON, as synthesised or read from YAML). */
export interface KubeObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: {
    readonly name: string;
    readonly namespace?: string;
    readonly labels?: Readonly<Record<string, string>>;
    readonly annotations?: Readonly<Record<string, string>>;
    readonly [key: string]: unknown;
  };
  readonly [key: string]: unknown;
}

/** `Kind/namespace/name` (or `Kind/name` when cluster-scoped): how people and logs name an object. */
export function objectRef(object: KubeObject): string {
  const ns = object.metadata.namespace;
  return ns ? `${object.kind}/${ns}/${object.metadata.name}` : `${object.kind}/${object.metadata.name}`;
}

/** True for a value with the fields every object needs: `apiVersion`, `kind`, `metadata.name`. */
export function isKubeObject(value: unknown): value is KubeObject {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const metadata = v.metadata as Record<string, unknown> | undefined;
  return (
    typeof v.apiVersion === 'string' &&
    typeof v.kind === 'string' &&
    typeof metadata === 'object' &&
    metadata !== null &&
    typeof metadata.name === 'string'
  );
}
