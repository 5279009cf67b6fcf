import { KubeObject } from '../graph';
import { parseApiVersion, pulumiTypeToken } from './type-token';
import { hasTypedClass } from './typed-kinds';

/**
 * How a kind appears in a logical name: the bare kind for the built-in kinds Stackwright registers
 * with typed classes (`Deployment`), `Kind.group` for everything else (`MariaDB.k8s.mariadb.com`), so
 * two custom kinds of the same name in different groups never share a name.
 *
 * The API version is deliberately left out: moving a HorizontalPodAutoscaler from `autoscaling/v1`
 * to `autoscaling/v2` must not rename it (the typed classes carry aliases between versions).
 */
export function kindRef(apiVersion: string, kind: string): string {
  if (hasTypedClass(pulumiTypeToken(apiVersion, kind))) return kind;
  const { group } = parseApiVersion(apiVersion);
  return group === '' ? kind : `${kind}.${group}`;
}

/**
 * The Pulumi logical name of a Kubernetes object: `<component>:<kind>:<namespace>/<name>`, or
 * `<kind>:<namespace>/<name>` for a bootstrap object (one without a component: namespaces, shared
 * RBAC); cluster-scoped objects drop the `<namespace>/`. Examples:
 * `keystone-api:Deployment:openstack/keystone-api`, `Namespace:openstack`.
 *
 * The name is built only from what identifies the object in the cloud, never from the construct
 * path or cdk8s's path hash, so refactoring the construct tree (moving a construct, renaming a
 * scope) leaves every name, and therefore every Pulumi URN, unchanged. A `prefix` keeps two clouds
 * in one stack apart (`<prefix>:…`).
 */
export function objectLogicalName(
  object: KubeObject,
  component: string | undefined,
  prefix?: string,
): string {
  const ns = object.metadata.namespace;
  const ref = ns ? `${ns}/${object.metadata.name}` : object.metadata.name;
  const parts = [kindRef(object.apiVersion, object.kind), ref];
  if (component !== undefined) parts.unshift(component);
  if (prefix) parts.unshift(prefix);
  return parts.join(':');
}

/** The logical name of a component's `stackwright:index:Component` resource: its name, prefixed like its objects. */
export function componentLogicalName(component: string, prefix?: string): string {
  return prefix ? `${prefix}:${component}` : component;
}

/**
 * The component an object's logical name places it in, or undefined for a bootstrap object; used to
 * find the old parent of an alias. Throws on a name that `objectLogicalName` could not have made.
 */
export function componentOfLogicalName(logicalName: string, prefix?: string): string | undefined {
  let rest = logicalName;
  if (prefix) {
    if (!rest.startsWith(`${prefix}:`)) {
      throw new Error(`logical name "${logicalName}" does not start with the resource prefix "${prefix}:"`);
    }
    rest = rest.slice(prefix.length + 1);
  }
  const parts = rest.split(':');
  if (parts.length === 3 && parts.every((p) => p !== '')) return parts[0];
  if (parts.length === 2 && parts.every((p) => p !== '')) return undefined;
  throw new Error(
    `"${logicalName}" is not a Stackwright object name; expected "<component>:<kind>:<namespace>/<name>" or "<kind>:<namespace>/<name>"`,
  );
}
