import { shown } from '../graph';

/**
 * The OpenStack releases this package supports: for each one it carries the option schemas the
 * services' configuration is checked against and the image tag the images are built with
 * (docs/images.md). A release outside this list would be checked against another release's options
 * and tagged with images nobody built, so a cloud refuses it at construction.
 */
export const SUPPORTED_RELEASES = ['2025.1'] as const;

/** An OpenStack release this package supports (see {@link SUPPORTED_RELEASES}). */
export type OpenStackRelease = (typeof SUPPORTED_RELEASES)[number];

/** The release a cloud gets when it names none: the newest supported one. */
export const DEFAULT_RELEASE: OpenStackRelease = SUPPORTED_RELEASES[SUPPORTED_RELEASES.length - 1];

/** Codenames of the numbered releases, so a codename is answered with its number. */
const CODENAMES: Readonly<Record<string, string>> = {
  caracal: '2024.1',
  dalmatian: '2024.2',
  epoxy: '2025.1',
  flamingo: '2025.2',
  gazpacho: '2026.1',
};

/** Problems with a `release` value: not a string, a codename, or a release the package does not carry. */
export function releaseProblems(value: unknown, name: string): string[] {
  if (value === undefined) return [];
  if (typeof value === 'string' && (SUPPORTED_RELEASES as readonly string[]).includes(value)) return [];
  const supported = SUPPORTED_RELEASES.map((r) => `'${r}'`).join(', ');
  const numbered = typeof value === 'string' ? CODENAMES[value.trim().toLowerCase()] : undefined;
  const hint =
    numbered && (SUPPORTED_RELEASES as readonly string[]).includes(numbered)
      ? `; ${shown(value)} is the codename of '${numbered}': write release: '${numbered}'`
      : `; this package carries option schemas and images for ${supported} only`;
  return [`${name} must be one of ${supported}, got ${shown(value)}${hint}`];
}
