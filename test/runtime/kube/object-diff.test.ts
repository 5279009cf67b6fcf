import { KubeObject } from '../../../lib/graph';
import {
  canonicalJson,
  containsDesired,
  diffObjects,
  hashObject,
  parseQuantity,
  redactSecret,
  REDACTED,
} from '../../../lib/runtime/kube/object-diff';

function deployment(image: string, replicas: number, extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'keystone-api', namespace: 'openstack', labels: { app: 'keystone' } },
    spec: {
      replicas,
      template: { spec: { containers: [{ name: 'api', image, ports: [{ containerPort: 5000 }] }] } },
      ...extra,
    },
  };
}

describe('diffObjects', () => {
  test('names changed fields by path, matching containers by name', () => {
    // GIVEN a live object and the dry-run result with a new image and replica count
    const live = deployment('keystone:1', 1);
    const after = deployment('keystone:2', 3);

    // WHEN
    const changes = diffObjects(live, after);

    // THEN
    expect(changes).toEqual([
      { path: 'spec.replicas', change: 'changed', before: 1, after: 3 },
      {
        path: 'spec.template.spec.containers[name=api].image',
        change: 'changed',
        before: 'keystone:1',
        after: 'keystone:2',
      },
    ]);
  });

  test('ignores status and server bookkeeping', () => {
    // GIVEN objects that differ only in resourceVersion, managedFields and status
    const before = { ...deployment('a', 1), status: { replicas: 1 } } as KubeObject;
    const after = {
      ...deployment('a', 1),
      metadata: {
        ...deployment('a', 1).metadata,
        resourceVersion: '42',
        managedFields: [{ manager: 'stackwright' }],
      },
      status: { replicas: 2 },
    } as KubeObject;

    // WHEN / THEN
    expect(diffObjects(before, after)).toEqual([]);
  });

  test('quotes keys that are not identifiers', () => {
    // GIVEN an added annotation with a slash in its key
    const before = deployment('a', 1);
    const after = {
      ...before,
      metadata: { ...before.metadata, annotations: { 'stackwright.io/component': 'keystone-api' } },
    };

    // WHEN / THEN
    expect(diffObjects(before, after)).toEqual([
      {
        path: 'metadata.annotations',
        change: 'added',
        after: { 'stackwright.io/component': 'keystone-api' },
      },
    ]);
    const more = {
      ...after,
      metadata: { ...after.metadata, annotations: { 'stackwright.io/component': 'x' } },
    };
    expect(diffObjects(after, more)[0].path).toBe('metadata.annotations["stackwright.io/component"]');
  });

  test('never shows Secret values, only that they changed', () => {
    // GIVEN a Secret whose password changes and gets a new key
    const before: KubeObject = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's', namespace: 'n' },
      data: { password: 'b2xk' },
    };
    const after: KubeObject = { ...before, data: { password: 'bmV3', token: 'dG9r' } };

    // WHEN
    const changes = diffObjects(before, after);

    // THEN
    expect(changes).toEqual([
      { path: 'data.password', change: 'changed', before: REDACTED, after: REDACTED },
      { path: 'data.token', change: 'added', after: REDACTED },
    ]);
    expect(JSON.stringify(changes)).not.toMatch(/b2xk|bmV3|dG9r/);
  });

  test('redacts a Secret that appears or disappears as a whole data map', () => {
    const before: KubeObject = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } };
    const after: KubeObject = { ...before, stringData: { password: 'hunter2' } };
    expect(JSON.stringify(diffObjects(before, after))).not.toContain('hunter2');
  });
});

describe('redactSecret', () => {
  test('replaces every data and stringData value and leaves other kinds alone', () => {
    // GIVEN
    const secret: KubeObject = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's' },
      data: { a: 'eA==' },
      stringData: { b: 'y' },
    };
    const configMap: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c' },
      data: { a: 'x' },
    };

    // WHEN / THEN
    expect(redactSecret(secret)).toEqual({ ...secret, data: { a: REDACTED }, stringData: { b: REDACTED } });
    expect(redactSecret(configMap)).toBe(configMap);
  });
});

describe('containsDesired', () => {
  test('is true when the live object holds every desired field plus server defaults', () => {
    // GIVEN a live object with defaults the manifest does not mention
    const desired = deployment('keystone:1', 2);
    const live = deployment('keystone:1', 2, {
      strategy: { type: 'RollingUpdate' },
      revisionHistoryLimit: 10,
    });
    (live.metadata as Record<string, unknown>).uid = 'u1';

    // WHEN / THEN
    expect(containsDesired(desired, live)).toBe(true);
  });

  test('is false when a desired field differs or is missing', () => {
    expect(containsDesired(deployment('keystone:2', 2), deployment('keystone:1', 2))).toBe(false);
    expect(containsDesired(deployment('a', 2, { paused: true }), deployment('a', 2))).toBe(false);
  });

  test('treats numbers and their string form as equal, and empty desired values as absent', () => {
    // GIVEN a manifest with an int port and an empty resources map
    const desired: KubeObject = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's' },
      spec: { ports: [{ port: 80, targetPort: 8080 }], selector: {} },
    };
    const live: KubeObject = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's' },
      spec: { ports: [{ port: 80, targetPort: '8080', protocol: 'TCP' }] },
    };

    // WHEN / THEN
    expect(containsDesired(desired, live)).toBe(true);
  });

  test("matches an empty string with the absent field the server stores for it (an env var's value)", () => {
    // GIVEN a CronJob with an empty env value, which the server stores without `value`
    const cronJob = (env: Record<string, string>[]): KubeObject => ({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'c' },
      spec: { jobTemplate: { spec: { template: { spec: { containers: [{ name: 'main', env }] } } } } },
    });
    // WHEN / THEN: absent matches, another value does not
    expect(containsDesired(cronJob([{ name: 'COPIES', value: '' }]), cronJob([{ name: 'COPIES' }]))).toBe(
      true,
    );
    expect(
      containsDesired(cronJob([{ name: 'COPIES', value: '' }]), cronJob([{ name: 'COPIES', value: 'x' }])),
    ).toBe(false);
  });

  test('compares Secret stringData with the decoded data the server stores', () => {
    // GIVEN a Secret written with stringData (the server only keeps data)
    const desired: KubeObject = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's' },
      stringData: { password: 'p' },
    };
    const live: KubeObject = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's' },
      data: { password: Buffer.from('p').toString('base64') },
    };
    const changed: KubeObject = { ...live, data: { password: Buffer.from('q').toString('base64') } };

    // WHEN / THEN
    expect(containsDesired(desired, live)).toBe(true);
    expect(containsDesired(desired, changed)).toBe(false);
  });

  test('treats resource quantities the API server canonicalised as equal', () => {
    // GIVEN limits written as 1024Mi and 0.5 that the server stores as 1Gi and 500m
    const desired = deployment('a', 1, { resources: { limits: { memory: '1024Mi', cpu: '0.5' } } });
    const live = deployment('a', 1, { resources: { limits: { memory: '1Gi', cpu: '500m' } } });
    const different = deployment('a', 1, { resources: { limits: { memory: '2Gi', cpu: '500m' } } });

    // WHEN / THEN
    expect(containsDesired(desired, live)).toBe(true);
    expect(containsDesired(desired, different)).toBe(false);
  });

  test('lists must have the same length: an extra item means apply', () => {
    const desired = deployment('a', 1);
    const live = deployment('a', 1);
    (live.spec as { template: { spec: { containers: unknown[] } } }).template.spec.containers.push({
      name: 'sidecar',
      image: 'x',
    });
    expect(containsDesired(desired, live)).toBe(false);
  });
});

describe('hashObject', () => {
  test('does not depend on key order and changes with content', () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: 3 } })).toBe('{"a":{"c":3,"d":2},"b":1}');
    expect(hashObject({ a: 1, b: 2 })).toBe(hashObject({ b: 2, a: 1 }));
    expect(hashObject({ a: 1 })).not.toBe(hashObject({ a: 2 }));
  });

  test("covers a Secret's keys but not its values", () => {
    // GIVEN two versions of a Secret that differ only in a value, and one with another key
    const secret = (stringData: Record<string, string>) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'admin', namespace: 'openstack' },
      stringData,
    });
    // WHEN / THEN
    expect(hashObject(secret({ password: 'hunter2' }))).toBe(hashObject(secret({ password: 'letmein' })));
    expect(hashObject(secret({ password: 'hunter2' }))).not.toBe(hashObject(secret({ token: 'hunter2' })));
    expect(hashObject(secret({ password: 'hunter2' }))).not.toBe(
      hashObject({ ...secret({ password: 'hunter2' }), kind: 'ConfigMap' }),
    );
  });
});

describe('parseQuantity', () => {
  test.each([
    ['1Gi', 2 ** 30],
    ['1024Mi', 2 ** 30],
    ['500m', 0.5],
    ['0.5', 0.5],
    ['2k', 2000],
    ['1e3', 1000],
    ['1.5G', 1.5e9],
  ])('%s = %d', (text, value) => {
    expect(parseQuantity(text)).toBeCloseTo(value);
  });

  test.each(['abc', '1Gb', '', 'Gi', '1.2.3'])('%s is not a quantity', (text) => {
    expect(parseQuantity(text)).toBeUndefined();
  });
});
