import { Annotations } from './annotations';
import { objectSource } from './load-manifests';
import { KubeObject } from './manifest';

/**
 * How the caller chooses a cloud, for messages: the CLI's `--cloud prod`, the runtime's option
 * `cloud: 'prod'`. Given one of the clouds found.
 */
export type HowToChooseCloud = (example: string) => string;

/**
 * The manifests hold several clouds and none was chosen. A component graph, an inventory and a
 * deployer role belong to one cloud: merging two by component name would deploy neither.
 */
export class SeveralCloudsError extends Error {
  constructor(
    /** The clouds found, sorted. */
    readonly clouds: readonly string[],
    how: HowToChooseCloud,
  ) {
    super(`the manifests hold several clouds (${clouds.join(', ')}); ${how(clouds[0])}`);
    this.name = 'SeveralCloudsError';
  }
}

/** The cloud an object belongs to: its `stackwright.io/cloud` annotation, or undefined. */
function cloudOf(object: KubeObject): string | undefined {
  const cloud = object.metadata.annotations?.[Annotations.CLOUD];
  return cloud ? cloud : undefined;
}

/** The clouds the objects belong to (their `stackwright.io/cloud` annotations), sorted. */
export function cloudNames(objects: readonly KubeObject[]): string[] {
  const names = new Set<string>();
  for (const object of objects) {
    const cloud = cloudOf(object);
    if (cloud !== undefined) names.add(cloud);
  }
  return [...names].sort();
}

/**
 * The objects of one cloud, read from their `stackwright.io/cloud` annotation (every object a
 * `Cloud` synthesises carries it).
 * - `cloud` given: its objects; a cloud the manifests do not hold is an error naming those they do.
 * - `cloud` undefined: all objects when they hold at most one cloud, else {@link SeveralCloudsError}.
 * With several clouds, an object without the annotation belongs to none of them: an error naming
 * its file and document, instead of a guess. Expects objects that passed the manifest contract.
 *
 * @param how how the caller chooses a cloud, for the messages
 */
export function selectCloud(
  objects: readonly KubeObject[],
  cloud: string | undefined,
  how: HowToChooseCloud,
): KubeObject[] {
  const clouds = cloudNames(objects);
  if (cloud !== undefined && !clouds.includes(cloud))
    throw new Error(
      clouds.length === 0
        ? `no cloud "${cloud}" in the manifests: no object carries the ${Annotations.CLOUD} annotation; leave the cloud out`
        : `no cloud "${cloud}" in the manifests; they hold ${clouds.join(', ')}: ${how(clouds[0])}`,
    );
  if (clouds.length <= 1) return [...objects];
  if (cloud === undefined) throw new SeveralCloudsError(clouds, how);
  const unclaimed = objects.filter((o) => cloudOf(o) === undefined);
  if (unclaimed.length > 0)
    throw new Error(
      `the manifests hold several clouds (${clouds.join(', ')}), and ${unclaimed.map(objectSource).join(', ')} ` +
        `belongs to none: add the ${Annotations.CLOUD} annotation of its cloud, or move it to that cloud's directory`,
    );
  return objects.filter((o) => cloudOf(o) === cloud);
}
