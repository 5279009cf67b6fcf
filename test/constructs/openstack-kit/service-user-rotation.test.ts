import { execFileSync } from 'node:child_process';
import { App } from 'cdk8s';
import { Heat } from '../../../constructs/openstack/heat';
import { Placement } from '../../../constructs/openstack/placement';
import { ServiceUserRotationSchedule } from '../../../constructs/openstack-kit/service-user-rotation';
import {
  ROTATION_KEYSTONE_PROGRAM,
  ROTATION_KUBERNETES_PROGRAM,
} from '../../../constructs/openstack-kit/service-user-rotation-program';
import { KubeObject } from '../../../lib/graph';
import { findObject, podSpecOf, synthObjects } from '../../../lib/testing';
import { referenceCloud } from '../../../stacks/reference-cloud';
import { baseCloud, envOf, errorOf, scriptOf } from '../support/compute-network-fixture';

interface Container {
  readonly name: string;
  readonly command: string[];
  readonly env?: { name: string; value?: string; valueFrom?: unknown }[];
  readonly volumeMounts?: { name: string }[];
}

function placementObjects(serviceUserRotation?: ServiceUserRotationSchedule): KubeObject[] {
  const { cloud, keystone, database, cache } = baseCloud();
  new Placement(cloud, 'placement', { keystone, database, cache, serviceUserRotation });
  return synthObjects(cloud);
}

/** The rotation pod's steps, init containers first, as they run. */
function stepsOf(cronJob: KubeObject): Container[] {
  const spec = podSpecOf(cronJob) as { initContainers: Container[]; containers: Container[] };
  return [...spec.initContainers, ...spec.containers];
}

const cronJobSpec = (o: KubeObject) =>
  (o as unknown as { spec: { schedule: string; suspend: boolean } }).spec;
const plainEnv = (c: Container) =>
  Object.fromEntries((c.env ?? []).map((e) => [e.name, e.value ?? e.valueFrom]));

describe('ServiceUserRotation', () => {
  test("by default a suspended CronJob, run by hand: five steps, the Keystone ones with the admin's password, the Kubernetes ones with the token", () => {
    // GIVEN / WHEN
    const cronJob = findObject(placementObjects(), 'CronJob', 'placement-ks-user-rotation');
    // THEN
    expect(cronJobSpec(cronJob)).toMatchObject({ suspend: true });
    const steps = stepsOf(cronJob);
    expect(steps.map((s) => s.name)).toEqual(['read', 'enable', 'switch', 'disable', 'complete']);
    const withToken = steps.filter((s) => (s.volumeMounts ?? []).some((m) => m.name === 'kube-api-access'));
    expect(withToken.map((s) => s.name)).toEqual(['read', 'switch', 'complete']);
    const withPassword = steps.filter((s) => JSON.stringify(s.env ?? []).includes('secretKeyRef'));
    expect(withPassword.map((s) => s.name)).toEqual(['enable', 'disable']);
    expect(plainEnv(steps[1]).OS_PASSWORD).toEqual({
      secretKeyRef: { name: 'keystone-admin-credentials', key: 'password' },
    });
    // … each step is its side's program given its name
    expect(steps.map((s) => s.command[s.command.length - 1])).toEqual(steps.map((s) => s.name));
  });

  test('the Kubernetes steps know the Secret, the two users and exactly the workloads that read the Secret', () => {
    // GIVEN / WHEN
    const cronJob = findObject(placementObjects(), 'CronJob', 'placement-ks-user-rotation');
    // THEN
    expect(plainEnv(stepsOf(cronJob)[0])).toMatchObject({
      SECRET: 'placement-keystone-user',
      NAMESPACE: 'openstack',
      USERS: 'placement placement-alt',
      COPY_NAMESPACES: '',
      WORKLOADS: JSON.stringify([{ kind: 'Deployment', namespace: 'openstack', name: 'placement-api' }]),
      // the API's grace period (its preStop drain included) and a margin
      DRAIN_SECONDS: '50',
    });
  });

  test("a node agent's workloads and the Secret's copy in the agents' namespace are rolled too, with a grant there", () => {
    // GIVEN the reference cloud, whose nova-compute reads Nova's user from a copy
    const objects = synthObjects(referenceCloud(new App()));
    // WHEN
    const env = plainEnv(stepsOf(findObject(objects, 'CronJob', 'nova-ks-user-rotation'))[0]);
    // THEN
    expect(env.COPY_NAMESPACES).toBe('openstack-agents');
    expect(JSON.parse(env.WORKLOADS as string)).toEqual([
      { kind: 'DaemonSet', namespace: 'openstack-agents', name: 'nova-compute' },
      { kind: 'Deployment', namespace: 'openstack', name: 'nova-api' },
      { kind: 'Deployment', namespace: 'openstack', name: 'nova-conductor' },
      { kind: 'Deployment', namespace: 'openstack', name: 'nova-metadata' },
      { kind: 'Deployment', namespace: 'openstack', name: 'nova-scheduler' },
    ]);
    const agentsRole = objects.find(
      (o) =>
        o.kind === 'Role' &&
        o.metadata.name === 'nova-ks-user-rotation' &&
        o.metadata.namespace === 'openstack-agents',
    );
    expect((agentsRole as unknown as { rules: unknown[] }).rules).toEqual([
      {
        apiGroups: [''],
        resources: ['secrets'],
        resourceNames: ['nova-keystone-user'],
        verbs: ['get', 'patch'],
      },
      {
        apiGroups: ['apps'],
        resources: ['daemonsets'],
        resourceNames: ['nova-compute'],
        verbs: ['get', 'patch'],
      },
    ]);
    // … and a service without node agents gets no grant there
    expect(
      objects.filter((o) => o.metadata.name === 'glance-ks-user-rotation').map((o) => o.metadata.namespace),
    ).not.toContain('openstack-agents');
  });

  test.each([
    ['weekly', '7 4 * * 1'],
    ['monthly', '7 4 2 * *'],
  ] as const)('%s runs at 04:07 UTC on its schedule', (rotation, schedule) => {
    const cronJob = findObject(placementObjects(rotation), 'CronJob', 'placement-ks-user-rotation');
    expect(cronJobSpec(cronJob)).toMatchObject({ schedule, suspend: false });
  });

  test('never: no CronJob and no grant to roll the service', () => {
    const objects = placementObjects('never');
    expect(objects.filter((o) => o.metadata.name.startsWith('placement-ks-user-rotation'))).toEqual([]);
  });

  test("the user's Secret starts with the catalogue name, which the registration reads from it", () => {
    const objects = placementObjects();
    expect(scriptOf(findObject(objects, 'Job', 'placement-ks-register-credentials'))).toContain(
      '"stringData":{"password":"%s","username":"placement"}',
    );
    expect(envOf(findObject(objects, 'Job', 'placement-ks-register')).USER_NAME).toEqual({
      secretKeyRef: { name: 'placement-keystone-user', key: 'username' },
    });
  });

  test("Heat's user stays: asking for its rotation fails with the path and why", () => {
    const { cloud, keystone, database, messaging, cache } = baseCloud();
    expect(
      errorOf(
        () =>
          new Heat(cloud, 'heat', { keystone, database, messaging, cache, serviceUserRotation: 'monthly' }),
      ),
    ).toMatch(
      /\[prod\/heat\] serviceUserRotation 'monthly' cannot be used: Heat's user is the trustee of every trust its stacks hold .*; leave it out \(the default is 'never'\)/,
    );
  });

  test('an unknown schedule fails with the path and the choices', () => {
    expect(errorOf(() => placementObjects('daily' as ServiceUserRotationSchedule))).toMatch(
      /\[prod\/placement\] serviceUserRotation must be one of "weekly", "monthly", "on-demand", "never", got "daily"/,
    );
  });
});

describe('the rotation programs', () => {
  test.each([
    ['Keystone', ROTATION_KEYSTONE_PROGRAM],
    ['Kubernetes', ROTATION_KUBERNETES_PROGRAM],
  ])('the %s side is valid Python', (_side, program) => {
    // WHEN python compiles it (without running it)
    const run = () =>
      execFileSync('python3', ['-c', 'import sys; compile(sys.stdin.read(), "rotation", "exec")'], {
        input: program,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
    // THEN
    expect(run).not.toThrow();
  });
});
