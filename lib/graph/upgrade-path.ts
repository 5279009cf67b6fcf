import { isSupportedRelease, OPENSTACK_SERIES, SUPPORTED_RELEASES } from './openstack-releases';
import { shown } from './shown';

/**
 * Problems with moving a deployed cloud from release `from` to release `to`, each starting with
 * `[where]` (the cloud's construct path). Allowed: staying, the next release, or a skip-level pair
 * (one SLURP release to the next, see {@link OPENSTACK_SERIES}) when the package supports both.
 * Refused: a downgrade (OpenStack's database migrations only go forward), a jump over more than
 * one release that is not a skip-level pair (upstream tests no such path), and a deployed release
 * the package does not carry (its schemas and images are gone, so nothing can be planned from it).
 *
 * @example
 * upgradePathProblems('prod', '2024.2', '2025.1'); // []
 * upgradePathProblems('prod', '2025.1', '2024.2'); // ["[prod] release '2025.1' -> '2024.2' is a downgrade; …"]
 */
export function upgradePathProblems(where: string, from: string, to: string): string[] {
  if (from === to) return [];
  const supported = SUPPORTED_RELEASES.map((r) => `'${r}'`).join(', ');
  if (!isSupportedRelease(from)) {
    return [
      `[${where}] the cluster runs release ${shown(from)}, which this package does not carry (it supports ${supported}); ` +
        `upgrade the cloud with a Stackwright version that supports ${shown(from)} first`,
    ];
  }
  if (!isSupportedRelease(to)) return []; // the cloud's own release check reports it, by the same path
  const index = (release: string) => OPENSTACK_SERIES.findIndex((s) => s.release === release);
  const [i, j] = [index(from), index(to)];
  if (j < i) {
    return [
      `[${where}] release '${from}' -> '${to}' is a downgrade, and OpenStack's database migrations only go forward; ` +
        `set release: '${from}' again, or restore the database backup taken before the upgrade to '${from}' and redeploy it (docs/upgrades.md)`,
    ];
  }
  if (j === i + 1 || isSkipLevelPair(from, to)) return [];
  const next = OPENSTACK_SERIES[i + 1].release;
  return [
    `[${where}] release '${from}' -> '${to}' skips ${j - i - 1} release(s) and is not a skip-level (SLURP to SLURP) pair; ` +
      `upgrade to '${next}' first (set release: '${next}' and deploy), then to '${to}'`,
  ];
}

/** `from` and `to` are consecutive SLURP releases (upstream's documented skip-level upgrade). */
export function isSkipLevelPair(from: string, to: string): boolean {
  const i = OPENSTACK_SERIES.findIndex((s) => s.release === from);
  const j = OPENSTACK_SERIES.findIndex((s) => s.release === to);
  if (i < 0 || j <= i || !OPENSTACK_SERIES[i].slurp || !OPENSTACK_SERIES[j].slurp) return false;
  return OPENSTACK_SERIES.slice(i + 1, j).every((s) => !s.slurp);
}
