import { App } from 'cdk8s';
import { SUPPORTED_RELEASES } from '../../lib/graph';
import { podSpecOf, synthObjects } from '../../lib/testing';
import { referenceCloud } from '../../stacks/reference-cloud';

describe.each(SUPPORTED_RELEASES)('the reference cloud at release %s', (release) => {
  // GIVEN the reference cloud at one of the supported releases
  // WHEN it is synthesised (its configuration checked against that release's option schemas)
  const objects = synthObjects(referenceCloud(new App(), 'reference', { release }));

  test("every OpenStack service image carries the release's tag", () => {
    // THEN the images of the registry's OpenStack services are tagged with the release
    const images = objects
      .filter((o) => ['Deployment', 'StatefulSet', 'DaemonSet', 'Job'].includes(o.kind))
      .flatMap((o) => (podSpecOf(o).containers as { image: string }[]).map((c) => c.image))
      .filter((image) => /\/(keystone|glance|placement|nova|neutron|cinder|heat|barbican):/.test(image));
    expect(images.length).toBeGreaterThan(20);
    expect(images.filter((image) => !image.endsWith(`:${release}`))).toEqual([]);
  });

  test('Job names carry the release', () => {
    // THEN every Job is named <component>-<release with a dash>-<hash>
    const jobs = objects.filter((o) => o.kind === 'Job').map((o) => o.metadata.name);
    expect(jobs.length).toBeGreaterThan(30);
    const tag = release.replace('.', '-');
    expect(jobs.filter((name) => !new RegExp(`-${tag}-[0-9a-f]{8}$`).test(name))).toEqual([]);
  });
});
