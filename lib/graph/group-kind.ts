/**
 * `group/Kind` (`apps/Deployment`, `serving.knative.dev/Service`), or the bare `Kind` for the core
 * group (`Service`, `ConfigMap`): how the runtime keys kinds, as kstatus does, so a custom
 * resource whose kind collides with a core kind never gets the core kind's rules.
 */
export type GroupKind = string;

/** The API group of `apiVersion`: `apps` for `apps/v1`, `` (core) for `v1`. */
export function apiGroupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** The `group/Kind` of an object or type. */
export function groupKindOf(type: { readonly apiVersion: string; readonly kind: string }): GroupKind {
  const group = apiGroupOf(type.apiVersion);
  return group === '' ? type.kind : `${group}/${type.kind}`;
}
