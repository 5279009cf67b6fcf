import { isSupportedRelease, OPENSTACK_SERIES, shown, SUPPORTED_RELEASES } from '../graph';

/** Problems with a `release` value: not a string, a codename, or a release the package does not carry. */
export function releaseProblems(value: unknown, name: string): string[] {
  if (value === undefined || isSupportedRelease(value)) return [];
  const supported = SUPPORTED_RELEASES.map((r) => `'${r}'`).join(', ');
  const numbered =
    typeof value === 'string'
      ? OPENSTACK_SERIES.find((s) => s.codename === value.trim().toLowerCase())?.release
      : undefined;
  const hint = isSupportedRelease(numbered)
    ? `; ${shown(value)} is the codename of '${numbered}': write release: '${numbered}'`
    : `; this package carries option schemas and images for ${supported} only`;
  return [`${name} must be one of ${supported}, got ${shown(value)}${hint}`];
}
