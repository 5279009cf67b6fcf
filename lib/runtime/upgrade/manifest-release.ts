import { ComponentGraph, isSupportedRelease, OpenStackRelease } from '../../graph';
import { imagesOf } from './upgrade-plan';

/** The supported release an image is tagged with (`<registry>/<service>:<release>`), if any. */
export function imageRelease(image: string): OpenStackRelease | undefined {
  const tag = image.slice(image.lastIndexOf(':') + 1);
  return isSupportedRelease(tag) ? tag : undefined;
}

/**
 * The OpenStack release of a graph's manifests: the supported release its OpenStack images are
 * tagged with (`<registry>/<service>:<release>`, docs/images.md). Undefined when no image carries a
 * release tag (manifests without OpenStack services: nothing to track). Throws naming the cloud and
 * the components when the images name several releases (manifests synthesised half-way).
 */
export function manifestRelease(graph: ComponentGraph, cloudPath: string): string | undefined {
  const byRelease = new Map<string, string[]>();
  for (const component of graph.components) {
    for (const object of component.objects) {
      for (const image of imagesOf(object)) {
        const tag = imageRelease(image);
        if (tag === undefined) continue;
        const names = byRelease.get(tag) ?? [];
        if (!names.includes(component.name)) names.push(component.name);
        byRelease.set(tag, names);
      }
    }
  }
  if (byRelease.size > 1) {
    const found = [...byRelease]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([r, names]) => `'${r}' (${names.slice(0, 3).join(', ')})`)
      .join(', ');
    throw new Error(
      `[${cloudPath}] the manifests' images name several releases: ${found}; synthesise the cloud again with one release`,
    );
  }
  return [...byRelease.keys()][0];
}
