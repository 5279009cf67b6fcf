import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { BOOTSTRAP_KIND_NAMES, kindFacts } from '../graph';
import { CLOUD_MARKER, closest, COMPONENT_MARKER, hasMarker } from './markers';

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
export function strayObjectProblems(cloud: IConstruct): string[] {
  const inside = cloud.node
    .findAll()
    .filter((c): c is ApiObject => c instanceof ApiObject)
    .filter((o) => !closest(o, COMPONENT_MARKER) && !kindFacts(o).bootstrap)
    .map(
      (o) =>
        `${o.node.path}: a ${o.kind} outside every component has no place in the rollout (no edges, no readiness gate); ` +
        `create it inside a Component (new Component(cloud, 'extras') and new JsonApiObject(component, …)); ` +
        `only ${BOOTSTRAP_KIND_NAMES.join(', ')} may stand outside one`,
    );
  return [...inside, ...(isFirstCloud(cloud) ? foreignObjectProblems(cloud.node.root) : [])];
}

function isFirstCloud(cloud: IConstruct): boolean {
  return cloud.node.root.node.findAll().find((c) => hasMarker(c, CLOUD_MARKER)) === cloud;
}

function foreignObjectProblems(root: IConstruct): string[] {
  return root.node
    .findAll()
    .filter((c): c is ApiObject => c instanceof ApiObject && !closest(c, CLOUD_MARKER))
    .map(
      (o) =>
        `${o.node.path}: ${o.kind} "${o.name}" is in the same App as this cloud but in no cloud; the output ` +
        `directory is read as the cloud's graph (deploy, graph, the exports), which would refuse it: move it into ` +
        `the cloud inside a Component, or synthesise it with an App of its own and another outdir ` +
        `(new App({ outdir: 'dist-extra' }))`,
    );
}
