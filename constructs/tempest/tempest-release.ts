import { OpenStackRelease } from '../../lib/graph';

/**
 * The Tempest release that tests each OpenStack release, as data. Tempest is branchless: every
 * Tempest release names the OpenStack releases it supports, and 43.0.0 is the one released for
 * 2025.1. `images/tempest.toml` installs the same version (a unit test keeps the two equal), and
 * {@link tempestConfig} writes only options that version reads. A release without a row has no
 * Tempest image built here; add the row together with the image.
 */
export const TEMPEST_RELEASES: Readonly<Partial<Record<OpenStackRelease, string>>> = {
  '2025.1': '43.0.0',
};

/**
 * The Tempest version for `release`; throws, naming `path` and the fix, for a release without one.
 *
 * @example
 * tempestVersion('2025.1', 'prod'); // '43.0.0'
 */
export function tempestVersion(release: OpenStackRelease, path: string): string {
  const version = TEMPEST_RELEASES[release];
  if (version === undefined) {
    const pinned = Object.keys(TEMPEST_RELEASES).join(', ');
    throw new Error(
      `[${path}] no Tempest release is pinned for OpenStack ${release} (pinned: ${pinned}); ` +
        `add it to TEMPEST_RELEASES (constructs/tempest/tempest-release.ts) and build its image (images/tempest.toml)`,
    );
  }
  return version;
}
