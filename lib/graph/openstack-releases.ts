// The OpenStack releases as data: part of the manifest contract, since the runtime judges an upgrade
// from the release of the manifests and the one the cluster runs (docs/upgrades.md).

/**
 * The OpenStack releases this package supports, oldest first: for each one it carries the option
 * schemas the services' configuration is checked against, the lock its Python layer is installed
 * from and the image tag the images are built with (docs/images.md). A release outside this list
 * would be checked against another release's options and tagged with images nobody built, so a
 * cloud refuses it at construction.
 */
export const SUPPORTED_RELEASES = ['2024.2', '2025.1'] as const;

/** An OpenStack release this package supports (see {@link SUPPORTED_RELEASES}). */
export type OpenStackRelease = (typeof SUPPORTED_RELEASES)[number];

/** The release a cloud gets when it names none: the newest supported one. */
export const DEFAULT_RELEASE: OpenStackRelease = SUPPORTED_RELEASES[SUPPORTED_RELEASES.length - 1];

/** One OpenStack release series, as openstack/releases lists it. */
export interface OpenStackSeries {
  /** The release's number, e.g. `2025.1`. */
  readonly release: string;
  /** Its codename, e.g. `epoxy`. */
  readonly codename: string;
  /**
   * A SLURP release ("skip level upgrade release process"): upstream supports upgrading from one
   * SLURP release straight to the next, skipping the release between them.
   */
  readonly slurp: boolean;
}

/**
 * The release series around the supported ones, oldest first, so a codename is answered with its
 * number and an upgrade path can be judged (upgrade-path.ts). Adding a release to
 * {@link SUPPORTED_RELEASES} needs its row here.
 */
export const OPENSTACK_SERIES: readonly OpenStackSeries[] = [
  { release: '2024.1', codename: 'caracal', slurp: true },
  { release: '2024.2', codename: 'dalmatian', slurp: false },
  { release: '2025.1', codename: 'epoxy', slurp: true },
  { release: '2025.2', codename: 'flamingo', slurp: false },
  { release: '2026.1', codename: 'gazpacho', slurp: true },
];

/** True when the package supports `value` (see {@link SUPPORTED_RELEASES}). */
export function isSupportedRelease(value: unknown): value is OpenStackRelease {
  return typeof value === 'string' && (SUPPORTED_RELEASES as readonly string[]).includes(value);
}
