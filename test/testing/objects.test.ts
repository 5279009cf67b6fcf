import { KubeObject } from '../../lib/graph';
import { podSpecOf } from '../../lib/testing';

const POD = { containers: [{ name: 'main', image: 'example:1' }] };
const object = (kind: string, spec: unknown): KubeObject => ({
  apiVersion: kind === 'CronJob' || kind === 'Job' ? 'batch/v1' : 'v1',
  kind,
  metadata: { name: 'example' },
  spec: spec as KubeObject['spec'],
});

describe('podSpecOf', () => {
  test("a workload's pod template, a CronJob's Job template, a Pod's own spec", () => {
    expect(podSpecOf(object('Job', { template: { spec: POD } }))).toBe(POD);
    expect(
      podSpecOf(
        object('CronJob', { schedule: '@daily', jobTemplate: { spec: { template: { spec: POD } } } }),
      ),
    ).toBe(POD);
    expect(podSpecOf(object('Pod', POD))).toBe(POD);
  });

  test('an object without a pod template is named', () => {
    expect(() => podSpecOf(object('CronJob', { template: { spec: POD } }))).toThrow(
      'CronJob/example has no pod template',
    );
  });
});
