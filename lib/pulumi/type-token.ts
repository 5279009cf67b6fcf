/**
 * The API group and version of an `apiVersion` string: `apps/v1` is group `apps`, version `v1`;
 * the core group has no prefix (`v1`), so its group is the empty string.
 */
export interface GroupVersion {
  readonly group: string;
  readonly version: string;
}

/** Splits an `apiVersion` into group and version; throws on an empty or malformed value. */
export function parseApiVersion(apiVersion: string): GroupVersion {
  const parts = apiVersion.split('/');
  if (parts.length === 1 && parts[0] !== '') return { group: '', version: parts[0] };
  if (parts.length === 2 && parts[0] !== '' && parts[1] !== '') return { group: parts[0], version: parts[1] };
  throw new Error(`malformed apiVersion "${apiVersion}"; expected "<version>" or "<group>/<version>"`);
}

/**
 * The Pulumi type token under which `@pulumi/kubernetes` registers an object of this kind, e.g.
 * `kubernetes:apps/v1:Deployment`, `kubernetes:core/v1:Secret`,
 * `kubernetes:rbac.authorization.k8s.io/v1:Role`.
 *
 * Pulumi spells the core group `core`, every other group by its full name, and a custom resource as
 * `kubernetes:<apiVersion>:<kind>` (which is the same rule, since a custom resource always has a
 * group). The token is part of every resource's URN, so it must match what the provider registers
 * exactly, or `pulumi up` would see a different resource and replace it.
 */
export function pulumiTypeToken(apiVersion: string, kind: string): string {
  const { group, version } = parseApiVersion(apiVersion);
  return `kubernetes:${group === '' ? 'core' : group}/${version}:${kind}`;
}
