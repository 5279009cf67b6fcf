import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { BOOTSTRAP_KIND_NAMES, kindFacts } from '../graph';
import { CLOUD_MARKER, hasMarker } from './markers';

/**
 * Objects that no component owns. Every back end reads the whole output directory as one cloud's
 * graph (`stackwright deploy dist/`, the exports, Pulumi), and an object outside every component has
 * no edges and no readiness gate there: the loader would refuse the directory after synthesis. So
 * synthesis refuses them first, each by its construct path:
 * - inside a cloud, only the shared bootstrap kinds (namespaces, CRDs, classes, RBAC, Secrets,
 *   ConfigMaps, NetworkPolicies) may stand outside a component;
 * - outside every cloud (another Chart of the App, a raw `ApiObject` at the App's root), nothing may:
 *   the first cloud of the App reports them, so each is named once.
 */
export function strayObjectProblems(
  cloud: IConstruct,
  objects: readonly { readonly object: ApiObject; readonly component?: unknown }[],
): string[] {
  const inside = objects
    .filter(({ object, component }) => component === undefined && !kindFacts(object).bootstrap)
    .map(
      ({ object: o }) =>
        `${o.node.path}: a ${o.kind} outside every component has no place in the rollout (no edges, no readiness gate); ` +
        `create it inside a Component (new Component(cloud, 'extras') and new JsonApiObject(component, …)); ` +
        `only ${BOOTSTRAP_KIND_NAMES.join(', ')} may stand outside one`,
    );
  return [...inside, ...(isFirstCloud(cloud) ? foreignObjectProblems(cloud.node.root) : [])];
}

/** Whether `cloud` is the App's first cloud in tree order; stops at the first one (walking the whole App per cloud made the check quadratic in clouds). */
function isFirstCloud(cloud: IConstruct): boolean {
  return firstCloud(cloud.node.root) === cloud;
}

function firstCloud(scope: IConstruct): IConstruct | undefined {
  if (hasMarker(scope, CLOUD_MARKER)) return scope;
  for (const child of scope.node.children) {
    const found = firstCloud(child);
    if (found) return found;
  }
  return undefined;
}

function foreignObjectProblems(root: IConstruct): string[] {
  return objectsOutsideClouds(root).map(
    (o) =>
      `${o.node.path}: ${o.kind} "${o.name}" is in the same App as this cloud but in no cloud; the output ` +
      `directory is read as the cloud's graph (deploy, graph, the exports), which would refuse it: move it into ` +
      `the cloud inside a Component, or synthesise it with an App of its own and another outdir ` +
      `(new App({ outdir: 'dist-extra' }))`,
  );
}

/** The objects under `scope` in no cloud, in tree order; a cloud's subtree is not entered. */
function objectsOutsideClouds(scope: IConstruct, found: ApiObject[] = []): ApiObject[] {
  if (hasMarker(scope, CLOUD_MARKER)) return found;
  if (scope instanceof ApiObject) found.push(scope);
  for (const child of scope.node.children) objectsOutsideClouds(child, found);
  return found;
}
