import { Finding } from '../../../lib/runtime/diagnose/finding';
import { StuckDetector } from '../../../lib/runtime/engine/stuck-detector';

const quota: Finding = {
  cause: 'quota-exceeded',
  ref: 'ReplicaSet/openstack/api-1',
  message: 'ResourceQuota q forbids …',
  blocking: true,
};
const unschedulable: Finding = {
  cause: 'unschedulable',
  ref: 'Pod/openstack/api-1-x',
  message: 'pod api-1-x cannot be scheduled …',
  blocking: false,
};

describe('StuckDetector', () => {
  test('confirms a blocking finding seen in two rounds in a row with nothing changed', () => {
    const detector = new StuckDetector();
    expect(detector.round([quota], 15_000)).toBeUndefined();
    expect(detector.round([quota], 30_000)).toEqual(quota);
  });

  test('never confirms what is not blocking', () => {
    const detector = new StuckDetector();
    detector.round([unschedulable], 15_000);
    expect(detector.round([unschedulable], 30_000)).toBeUndefined();
  });

  test('a change of the component after a round starts the confirmation over', () => {
    const detector = new StuckDetector();
    detector.round([quota], 15_000);
    detector.changed(20_000);
    expect(detector.round([quota], 30_000)).toBeUndefined();
    expect(detector.round([quota], 45_000)).toEqual(quota);
  });

  test('a round without the finding starts it over too', () => {
    const detector = new StuckDetector();
    detector.round([quota], 15_000);
    detector.round([], 30_000);
    expect(detector.round([quota], 45_000)).toBeUndefined();
  });
});
