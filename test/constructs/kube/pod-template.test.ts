import { containerResources } from '../../../constructs';

describe('containerResources', () => {
  test('requests as given, a memory limit of four times the request in the same unit, no CPU limit', () => {
    // WHEN
    const resources = containerResources({ cpu: '200m', memory: '512Mi' });
    // THEN
    expect(resources.requests?.cpu.value).toBe('200m');
    expect(resources.requests?.memory.value).toBe('512Mi');
    expect(resources.limits?.memory.value).toBe('2048Mi');
    expect(Object.keys(resources.limits ?? {})).toEqual(['memory']);
  });
});
