import { jobName } from '../../lib/graph/job-name';

describe('jobName', () => {
  const spec = { template: { spec: { containers: [{ image: 'keystone:2025.1' }] } } };

  test('carries the component, the release with a dash, and 8 hex digits of the spec', () => {
    // GIVEN a component's Job spec WHEN it is named THEN the name reads <component>-<release>-<hash>
    expect(jobName('keystone-db-sync', '2025.1', spec)).toMatch(/^keystone-db-sync-2025-1-[0-9a-f]{8}$/);
  });

  test('a changed spec or release gives a new name; the same spec the same name', () => {
    // GIVEN the same Job with a new image, and the same Job at another release
    const newImage = { template: { spec: { containers: [{ image: 'keystone:2025.2' }] } } };
    // WHEN each is named
    const [same, again, changed, otherRelease] = [
      jobName('keystone-db-sync', '2025.1', spec),
      jobName('keystone-db-sync', '2025.1', JSON.parse(JSON.stringify(spec))),
      jobName('keystone-db-sync', '2025.1', newImage),
      jobName('keystone-db-sync', '2024.2', spec),
    ];
    // THEN only an unchanged Job keeps its name (a second deploy writes nothing; a changed one runs)
    expect(again).toBe(same);
    expect(changed).not.toBe(same);
    expect(otherRelease).not.toBe(same);
  });

  test("a long component name is cut so the name fits the pods' job-name label", () => {
    // GIVEN a component name of 63 characters, the longest a component may have
    const long = `${'a'.repeat(46)}-${'b'.repeat(16)}`;
    // WHEN its Job is named
    const name = jobName(long, '2025.1', spec);
    // THEN the name has at most 63 characters, keeps the suffix, and no dash doubles before it
    expect(name.length).toBeLessThanOrEqual(63);
    expect(name).toMatch(/^a{46}-2025-1-[0-9a-f]{8}$/);
  });
});
