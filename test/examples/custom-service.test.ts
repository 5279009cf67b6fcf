import { App } from 'cdk8s';
import { addUsageReports, cloudWithUsageReports, UsageReportsProps } from '../../examples/custom-service';
import { Cloud } from '../../lib/model';
import { edgesOf, findObject, podSpecOf, synthGraph, synthObjects } from '../../lib/testing';

describe('examples/custom-service', () => {
  // GIVEN the example cloud with the in-house usage-reports API
  // WHEN it is synthesised
  const objects = synthObjects(cloudWithUsageReports(new App()));

  test('matches the snapshot', () => {
    // THEN
    expect(
      objects.filter((o) => o.metadata.annotations?.['stackwright.io/service'] === 'reports'),
    ).toMatchSnapshot();
  });

  test('the user-defined API gets Yaook scheduling on the API group key', () => {
    // THEN
    const spec = podSpecOf(findObject(objects, 'Deployment', 'reports-api')) as {
      affinity: {
        nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: unknown[] } };
      };
      tolerations: unknown[];
    };
    expect(
      spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms,
    ).toEqual([{ matchExpressions: [{ key: 'any.yaook.cloud/api', operator: 'Exists' }] }]);
    expect(spec.tolerations).toEqual([
      { key: 'any.yaook.cloud/api', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'any.yaook.cloud/api', operator: 'Exists', effect: 'NoExecute' },
    ]);
  });

  test('is part of the graph like a built-in service, with its edges', () => {
    // THEN
    expect(edgesOf(findObject(objects, 'Deployment', 'reports-api'))).toEqual([
      { from: 'reports-api', to: 'db', kind: 'ready' },
      { from: 'reports-api', to: 'gnocchi-api', kind: 'runtime' },
      { from: 'reports-api', to: 'keystone-api', kind: 'ready' },
      { from: 'reports-api', to: 'memcached', kind: 'ready' },
      { from: 'reports-api', to: 'reports-db-sync', kind: 'completed' },
      { from: 'reports-api', to: 'reports-ks-register', kind: 'completed' },
    ]);
    const graph = synthGraph(cloudWithUsageReports(new App()));
    expect(
      graph.components
        .filter((c) => c.service === 'reports')
        .map((c) => c.name)
        .sort(),
    ).toEqual([
      'reports-api',
      'reports-db-credentials',
      'reports-db-init',
      'reports-db-sync',
      'reports-ks-register',
      'reports-ks-register-credentials',
      'reports-ks-user-rotation',
    ]);
  });

  test('renders its own config file with Keystone auth and no credential', () => {
    // THEN
    const conf = (findObject(objects, 'ConfigMap', 'reports-api-config').data as Record<string, string>)[
      'reports.conf'
    ];
    expect(conf.startsWith('[DEFAULT]\ndebug = false\nretention_days = 90\n')).toBe(true);
    expect(conf).toContain('[keystone_authtoken]\nauth_type = password\n');
    expect(conf).not.toMatch(/username =|password =|connection =/);
  });

  test('its own validation reports the construct path and the fix', () => {
    // WHEN / THEN
    expect(() => synthObjects(cloudWithUsageReports(new App(), 'custom', { retentionDays: 0 }))).toThrow(
      /\[custom\/reports\] retentionDays must be between 1 and 3650, got 0/,
    );
    expect(() =>
      synthObjects(cloudWithUsageReports(new App(), 'custom', { config: { DEFAULT: { retention: 7 } } })),
    ).toThrow(
      '[custom/reports] reports.conf: unknown option "retention" in [DEFAULT] (not defined by the service, or removed); [DEFAULT] has retention_days, debug',
    );
  });

  test('can be added to any cloud, and fails for JavaScript users without Keystone', () => {
    // GIVEN
    const cloud = new Cloud(new App(), 'bare', { namespace: 'openstack' });
    // WHEN / THEN
    expect(() => addUsageReports(cloud, {} as UsageReportsProps)).toThrow(
      '[bare/reports] missing required input "keystone": pass the Keystone service as `keystone`',
    );
  });
});
