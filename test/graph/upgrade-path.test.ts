import { isSkipLevelPair, OPENSTACK_SERIES, SUPPORTED_RELEASES, upgradePathProblems } from '../../lib/graph';

describe('upgradePathProblems', () => {
  test('staying on the release or moving to the next one is allowed', () => {
    // GIVEN a cloud deployed at 2024.2
    // WHEN it stays, or names the next release
    // THEN nothing is reported
    expect(upgradePathProblems('prod', '2024.2', '2024.2')).toEqual([]);
    expect(upgradePathProblems('prod', '2024.2', '2025.1')).toEqual([]);
  });

  test('a downgrade is refused with the construct path and the way back', () => {
    // GIVEN a cloud deployed at 2025.1
    // WHEN its program names 2024.2
    const problems = upgradePathProblems('prod', '2025.1', '2024.2');
    // THEN the message names the cloud, says why and what to do instead
    expect(problems).toEqual([
      "[prod] release '2025.1' -> '2024.2' is a downgrade, and OpenStack's database migrations only go forward; " +
        "set release: '2025.1' again, or restore the database backup taken before the upgrade to '2025.1' and redeploy it (docs/upgrades.md)",
    ]);
  });

  test('a deployed release the package does not carry is refused', () => {
    // GIVEN a cluster running 2024.1, which this package has no schemas or images for
    // WHEN the cloud names 2024.2 (the next release)
    const problems = upgradePathProblems('prod', '2024.1', '2024.2');
    // THEN it is refused, naming both the deployed and the supported releases
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^\[prod\] the cluster runs release "2024\.1", which this package does not carry \(it supports '2024\.2', '2025\.1'\)/,
    );
  });

  test("a target outside the supported list is left to the cloud's own release check", () => {
    // GIVEN a deployed supported release WHEN the target is unknown THEN this rule adds nothing
    expect(upgradePathProblems('prod', '2024.2', '2099.1')).toEqual([]);
  });
});

describe('isSkipLevelPair', () => {
  test('consecutive SLURP releases are a pair; a non-SLURP end or a SLURP in between is not', () => {
    // GIVEN the series table WHEN pairs are judged THEN only SLURP -> next SLURP qualifies
    expect(isSkipLevelPair('2024.1', '2025.1')).toBe(true);
    expect(isSkipLevelPair('2025.1', '2026.1')).toBe(true);
    expect(isSkipLevelPair('2024.2', '2025.2')).toBe(false);
    expect(isSkipLevelPair('2024.1', '2026.1')).toBe(false);
    expect(isSkipLevelPair('2025.1', '2024.1')).toBe(false);
    expect(isSkipLevelPair('2024.1', '2024.2')).toBe(false);
  });
});

describe('the release tables', () => {
  test('every supported release has a series row, in the same order', () => {
    // GIVEN both tables WHEN the supported releases are looked up in the series THEN they appear in order
    const positions = SUPPORTED_RELEASES.map((r) => OPENSTACK_SERIES.findIndex((s) => s.release === r));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });
});
