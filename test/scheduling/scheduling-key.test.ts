import { isSchedulingKey, SchedulingKey } from '../../lib/scheduling';
import seedKeys from './fixtures/seed-000-scheduling-keys.json';

describe('SchedulingKey', () => {
  test('exports every key of seed 000 with its exact value, and nothing else', () => {
    // GIVEN the name = value pairs extracted from yaook.op.common.SchedulingKey (seed 000)
    const expected: Record<string, string> = seedKeys;

    // THEN the vocabulary is exactly the same set
    expect(Object.keys(SchedulingKey).sort()).toEqual(Object.keys(expected).sort());
    for (const [name, value] of Object.entries(expected)) {
      expect(SchedulingKey[name as keyof typeof SchedulingKey]).toBe(value);
    }
  });

  test('recognises key values and nothing else', () => {
    expect(isSchedulingKey('compute.yaook.cloud/hypervisor')).toBe(true);
    expect(isSchedulingKey('compute.yaook.cloud/hypervisors')).toBe(false);
    expect(isSchedulingKey('COMPUTE_HYPERVISOR')).toBe(false);
  });
});
