import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { KubeObject } from '../../../lib/graph';
import { ObjectStatus, StuckCause } from '../../../lib/runtime/ports';
import {
  goneReadiness,
  hasKindRule,
  objectReadiness,
  readinessRuleFor,
} from '../../../lib/runtime/readiness';

interface Fixture {
  readonly case: string;
  readonly expect: { readonly status: ObjectStatus; readonly message: string; readonly cause?: StuckCause };
  readonly object: KubeObject;
  /** Present for an object that is gone: `object` is then the manifest (see `goneReadiness`). */
  readonly gone?: { readonly appliedByUs: boolean; readonly deployed?: boolean };
}

const FIXTURES = path.join(__dirname, 'fixtures');

function loadFixtures(): [string, Fixture][] {
  return fs
    .readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .flatMap((file) =>
      parseAllDocuments(fs.readFileSync(path.join(FIXTURES, file), 'utf8')).map((doc): [string, Fixture] => {
        if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0].message}`);
        const fixture = doc.toJS() as Fixture;
        return [`${file.replace(/\.yaml$/, '')}: ${fixture.case}`, fixture];
      }),
    );
}

const fixtures = loadFixtures();

describe('readiness table fixtures', () => {
  test('there is at least one fixture per kind with a rule, and every expected status occurs', () => {
    // GIVEN
    const kinds = new Set(fixtures.map(([, f]) => f.object.kind));
    const statuses = new Set(fixtures.map(([, f]) => f.expect.status));

    // THEN
    for (const kind of [
      'Deployment',
      'StatefulSet',
      'DaemonSet',
      'ReplicaSet',
      'Job',
      'Pod',
      'Service',
      'PersistentVolumeClaim',
      'PodDisruptionBudget',
      'CustomResourceDefinition',
      'Namespace',
      'APIService',
      'ConfigMap',
    ]) {
      expect(kinds).toContain(kind);
      expect(hasKindRule(kind)).toBe(true);
    }
    expect([...statuses].sort()).toEqual(['Current', 'Failed', 'InProgress', 'NotFound', 'Terminating']);
    // The rule for gone objects (the TTL-deleted Job) is an input like the others.
    const gone = fixtures.filter(([, f]) => f.gone !== undefined).map(([, f]) => f.expect.status);
    expect([...new Set(gone)].sort()).toEqual(['Current', 'NotFound']);
  });

  test.each(fixtures)('%s', (_name, fixture) => {
    // GIVEN
    const rule = fixture.gone
      ? (object: KubeObject) =>
          goneReadiness({
            desired: object,
            appliedByUs: fixture.gone?.appliedByUs ?? false,
            deployed: fixture.gone?.deployed,
          })
      : readinessRuleFor(fixture.object);

    // WHEN
    const result = rule(fixture.object);

    // THEN
    expect(result).toEqual(fixture.expect);
  });
});

describe('readiness by group/Kind', () => {
  test('a custom kind named like a core kind (Knative Service) gets the Ready-condition rule, not the Service rule', () => {
    // GIVEN a Knative Service that is ready by its conditions and has no cluster IP
    const knative: KubeObject = {
      apiVersion: 'serving.knative.dev/v1',
      kind: 'Service',
      metadata: { name: 'hello', namespace: 'default', generation: 2 },
      spec: { template: { spec: { containers: [{ image: 'hello' }] } } },
      status: {
        observedGeneration: 2,
        url: 'http://hello.default.example.com',
        conditions: [{ type: 'Ready', status: 'True', reason: 'RoutesReady', message: 'traffic is served' }],
      },
    };

    // WHEN
    const result = objectReadiness(knative);

    // THEN it is judged by its Ready condition, never waiting for a cluster IP
    expect(hasKindRule(knative)).toBe(false);
    expect(result).toEqual({ status: 'Current', message: 'ready: RoutesReady: traffic is served' });
  });

  test('the core Service keeps its rule, looked up by object or by group/Kind', () => {
    // GIVEN
    const core = { apiVersion: 'v1', kind: 'Service' };

    // THEN
    expect(hasKindRule(core)).toBe(true);
    expect(hasKindRule('Service')).toBe(true);
    expect(hasKindRule('serving.knative.dev/Service')).toBe(false);
    expect(hasKindRule('apps/Deployment')).toBe(true);
  });
});

describe('readinessRuleFor options', () => {
  test('waitForLoadBalancer makes a LoadBalancer Service without ingress InProgress', () => {
    // GIVEN
    const lb = fixtures.find(([name]) => name.includes('LoadBalancer without ingress'))?.[1].object;
    if (!lb) throw new Error('fixture missing');

    // WHEN
    const result = readinessRuleFor('Service', { waitForLoadBalancer: true })(lb);

    // THEN
    expect(result).toEqual({
      status: 'InProgress',
      message: 'waiting for the load balancer to get an ingress address',
    });
  });
});

describe('the stackwright.io/wait annotation', () => {
  test('`exists` makes an object Current once it exists, whatever its kind would wait for', () => {
    // GIVEN a claim of a StorageClass that binds on first consumer, Pending, with and without the annotation
    const claim = (annotations: Record<string, string>): KubeObject => ({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'db-backups', namespace: 'openstack', annotations },
      status: { phase: 'Pending' },
    });

    // WHEN / THEN
    expect(objectReadiness(claim({ 'stackwright.io/wait': 'exists' })).status).toBe('Current');
    expect(objectReadiness(claim({})).status).toBe('InProgress');
    // (a deletion in progress still says so)
    expect(
      objectReadiness({
        ...claim({ 'stackwright.io/wait': 'exists' }),
        metadata: {
          name: 'db-backups',
          annotations: { 'stackwright.io/wait': 'exists' },
          deletionTimestamp: 'now',
        },
      }).status,
    ).not.toBe('Current');
  });
});

describe('objectReadiness', () => {
  test('absent objects are NotFound', () => {
    expect(objectReadiness(undefined)).toEqual({ status: 'NotFound', message: 'not found' });
  });

  test('a live object that does not show our write yet is InProgress, whatever its status says', () => {
    // GIVEN: a ready Deployment at generation 1; our apply returned generation 2.
    const live = fixtures.find(([name]) => name.startsWith('deployment: rolled out'))?.[1].object;
    if (!live) throw new Error('fixture missing');
    const old: KubeObject = {
      ...live,
      metadata: { ...live.metadata, generation: 1 },
      status: { ...(live.status as object), observedGeneration: 1 },
    };
    const applied = {
      ref: 'Deployment/openstack/keystone-api',
      action: 'configured' as const,
      live: { ...live, metadata: { ...live.metadata, generation: 3 } },
    };

    // WHEN
    const result = objectReadiness(old, applied);

    // THEN
    expect(result).toEqual({
      status: 'InProgress',
      message: 'waiting to observe our write (generation 3, seen 1)',
    });
  });
});
