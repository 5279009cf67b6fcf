/**
 * Proofs of the runtime against a real control plane (kube-apiserver, scheduler, controller
 * manager, kwok nodes with Yaook labels; see docs/test-cluster.md): the reference cloud deploys in
 * dependency order through the real `KubeCluster` port and verifies; a broken component blocks only
 * its dependants and the report explains cause and fix; an interrupted deploy resumes; a removed
 * component is pruned; destroy goes in reverse order; a no-op re-run writes nothing.
 *
 * Every test works in namespaces of its own (`sw-rt-*`), so tests do not depend on each other.
 */
import { App } from 'cdk8s';
import { ComponentGraph, graphFromManifests, KubeObject, transitiveDependants } from '../../lib/graph';
import { deploy } from '../../lib/runtime/operations/deploy';
import { destroy } from '../../lib/runtime/operations/destroy';
import { RunEvent } from '../../lib/runtime/events';
import { inventoryLocation, readInventory } from '../../lib/runtime/inventory/inventory';
import { KubeCluster } from '../../lib/runtime/kube/kube-cluster';
import { verify } from '../../lib/runtime/operations/rollout';
import { referenceCloud } from '../../stacks/reference-cloud';
import { auditedWrites, auditLogFile, auditLogOffset } from './support/audit-log';
import { kubeconfigFromEnv } from './support/cluster';
import { scratchNamespaces } from './support/scratch-namespaces';
import { deletionOrderViolations, orderViolations, overlapping } from './runtime/events';
import { fixtureCloud, FixtureComponent } from './runtime/fixtures';

jest.setTimeout(180_000);

const scratch = scratchNamespaces('sw-rt');
const freshNamespace = scratch.fresh;
let cluster: KubeCluster;
beforeAll(() => {
  cluster = scratch.cluster();
});

function record<T>(): { events: T[]; onEvent: (e: T) => void } {
  const events: T[] = [];
  return { events, onEvent: (e: T) => events.push(e) };
}

describe('the reference cloud', () => {
  test('deploys in dependency order with overlapping branches, verifies, re-runs without a write, and is destroyed in reverse order', async () => {
    // GIVEN the reference cloud synthesised into a namespace of its own
    const namespace = freshNamespace('ref');
    const objects = referenceCloud(new App(), 'e2e', { namespace }).toJson() as KubeObject[];
    const graph: ComponentGraph = graphFromManifests(objects);
    const rollout = record<RunEvent>();
    const audit = auditLogFile();
    const firstAuditOffset = audit ? auditLogOffset(audit) : 0;

    // WHEN it is deployed
    const first = await deploy(graph, { cluster, onEvent: rollout.onEvent, componentTimeoutMs: 120_000 });

    // THEN every component verified, none started before its gating dependencies were verified,
    const failures = first.rollout.components
      .filter((c) => c.state !== 'verified')
      .map((c) => `${c.name}: ${c.state} ${c.reason ?? ''}`);
    expect(failures).toEqual([]);
    expect(first.ok).toBe(true);
    expect(orderViolations(graph, rollout.events)).toEqual([]);
    // AND independent branches ran at the same time (no wave barrier)
    const independent = overlapping(rollout.events).filter(
      ([a, b]) => !transitiveDependants(graph, a).includes(b) && !transitiveDependants(graph, b).includes(a),
    );
    expect(independent.length).toBeGreaterThan(0);

    // WHEN it is verified without writing
    const verified = await verify(graph, cluster);
    // THEN
    expect(verified.ok).toBe(true);

    // WHEN it is deployed again with nothing changed
    const requestsBefore = cluster.requests.snapshot().writes;
    const auditOffset = audit ? auditLogOffset(audit) : 0;
    const again = await deploy(graph, { cluster });

    // THEN nothing was written: not by our counter, not in the API server's audit log
    expect(again.ok).toBe(true);
    expect(cluster.requests.snapshot().writes - requestsBefore).toBe(0);
    expect(again.inventory.writes).toBe(0);
    if (audit) {
      await new Promise((resolve) => setTimeout(resolve, 1500)); // the audit backend writes asynchronously
      expect(auditedWrites(audit, auditOffset, 'stackwright', namespace)).toEqual([]);
      // (and the check does see our writes: the first deploy's are there)
      expect(auditedWrites(audit, firstAuditOffset, 'stackwright', namespace).length).toBeGreaterThan(
        objects.length / 2,
      );
    }

    // WHEN it is destroyed
    const deletion = record<RunEvent>();
    // (background cascade: with ~120 components, foreground deletion would wait for every pod's
    // garbage collection in turn — 50 s instead of 20 s; the order is the same)
    const destroyed = await destroy(graph, {
      cluster,
      onEvent: deletion.onEvent,
      propagationPolicy: 'Background',
      concurrency: 16,
    });

    // THEN every unit is gone, each only after its dependants were gone, the namespace last
    expect(destroyed.deletion.units.filter((u) => u.state !== 'deleted')).toEqual([]);
    expect(deletionOrderViolations(graph, deletion.events)).toEqual([]);
    expect(
      await cluster.get({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }),
    ).toBeUndefined();
  });
});

describe('failures', () => {
  test('a failing Job and an unschedulable component block only their dependants, and the report says why and how to fix it', async () => {
    // GIVEN a cloud with a db-sync Job that fails, a component needing a scheduling label no node has,
    // their dependants, and an independent branch
    const namespace = freshNamespace('broken');
    const components: FixtureComponent[] = [
      { name: 'db', schedulingKeys: ['infra.yaook.cloud/db', 'infra.yaook.cloud/any'] },
      { name: 'db-sync', kind: 'job', fail: true, needs: { db: 'ready' } },
      { name: 'api', needs: { 'db-sync': 'completed' } },
      { name: 'cache', readyDelay: '2s' },
      { name: 'vnc', schedulingKeys: ['compute.yaook.cloud/vnc'] },
      { name: 'vnc-frontend', needs: { vnc: 'ready' } },
    ];
    const graph = graphFromManifests(fixtureCloud('broken', namespace, components));
    const preflight: string[] = [];

    // WHEN
    const result = await deploy(graph, {
      cluster,
      componentTimeoutMs: 12_000,
      diagnoseAfterMs: 4_000,
      onPreflight: (findings) => preflight.push(...findings.map((f) => `${f.component}: ${f.message}`)),
    });

    // THEN the failures are contained
    const state = (name: string) => result.rollout.components.find((c) => c.name === name);
    expect(result.ok).toBe(false);
    expect(state('db')?.state).toBe('verified');
    expect(state('cache')?.state).toBe('verified');
    expect(state('db-sync')?.state).toBe('failed');
    expect(state('api')).toMatchObject({ state: 'blocked', blockedBy: 'db-sync' });
    expect(state('vnc')?.state).toBe('failed');
    expect(state('vnc-frontend')).toMatchObject({ state: 'blocked', blockedBy: 'vnc' });
    // AND the Job failure is named
    expect(state('db-sync')?.reason).toMatch(/Job\/.*db-sync/);
    expect(`${state('db-sync')?.reason} ${(state('db-sync')?.diagnosis ?? []).join(' ')}`).toMatch(
      /BackoffLimitExceeded|fail/i,
    );
    // AND the missing label is named with the command that fixes it, before the rollout and after
    const vncReport = [state('vnc')?.reason ?? '', ...(state('vnc')?.diagnosis ?? [])].join('\n');
    expect(vncReport).toContain('compute.yaook.cloud/vnc');
    expect(vncReport).toContain('kubectl label node');
    expect(preflight.join('\n')).toMatch(/vnc: .*compute\.yaook\.cloud\/vnc.*kubectl label node/s);

    await destroy(graph, { cluster, propagationPolicy: 'Background' });
  });
});

describe('resume, prune', () => {
  const chain = (extra: FixtureComponent[] = []): FixtureComponent[] => [
    { name: 'a', readyDelay: '1s' },
    { name: 'b', readyDelay: '1s', needs: { a: 'ready' } },
    { name: 'c', readyDelay: '1s', needs: { b: 'ready' } },
    { name: 'd', readyDelay: '1s', needs: { c: 'ready' } },
    ...extra,
  ];

  test('an interrupted deploy resumes where it stopped and converges without duplicates', async () => {
    // GIVEN a chain a <- b <- c <- d, and a deploy interrupted once b is verified
    const namespace = freshNamespace('resume');
    const graph = graphFromManifests(fixtureCloud('resume', namespace, chain()));
    const controller = new AbortController();
    const interrupted = await deploy(graph, {
      cluster,
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'unit-done' && e.unit === 'b') controller.abort();
      },
    });
    expect(interrupted.rollout.outcome).toBe('aborted');
    expect(interrupted.rollout.components.find((c) => c.name === 'd')?.state).toBe('not-started');

    // WHEN the same deploy runs again
    const resumed = await deploy(graph, { cluster });

    // THEN it converges, without rewriting what the first run applied
    expect(resumed.ok).toBe(true);
    expect(resumed.skippedUnchanged).toBeGreaterThanOrEqual(5); // namespace + a and b (ConfigMap, Deployment)
    // AND every Deployment has exactly one ReplicaSet and one pod: nothing was rolled twice or duplicated
    const replicaSets = await cluster.list({ apiVersion: 'apps/v1', kind: 'ReplicaSet', namespace });
    expect(replicaSets.map((r) => r.metadata.labels?.['app.kubernetes.io/name']).sort()).toEqual([
      'a',
      'b',
      'c',
      'd',
    ]);
    const pods = await cluster.list({ apiVersion: 'v1', kind: 'Pod', namespace });
    expect(pods).toHaveLength(4);
    const inventory = await readInventory(cluster, inventoryLocation(graph));
    expect(inventory?.state).toBe('complete');

    await destroy(graph, { cluster, propagationPolicy: 'Background' });
  });

  test('deploy --prune deletes a component that left the manifests, and forgets it', async () => {
    // GIVEN a deployed chain with a leaf
    const namespace = freshNamespace('prune');
    const full = graphFromManifests(
      fixtureCloud('prune', namespace, chain([{ name: 'leaf', needs: { d: 'ready' } }])),
    );
    expect((await deploy(full, { cluster })).ok).toBe(true);
    const leaf = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'leaf', namespace } };
    expect(await cluster.get(leaf)).toBeDefined();

    // WHEN the leaf is removed from the manifests and the rest is deployed with prune
    const smaller = graphFromManifests(fixtureCloud('prune', namespace, chain()));
    const pruneEvents = record<RunEvent>();
    const result = await deploy(smaller, { cluster, prune: true, onEvent: pruneEvents.onEvent });

    // THEN the leaf's objects are gone, the inventory no longer lists them, the rest is untouched
    expect(result.ok).toBe(true);
    expect(result.prune?.units.map((u) => `${u.name}: ${u.state}`)).toEqual(['leaf: deleted']);
    expect(await cluster.get(leaf)).toBeUndefined();
    expect(
      await cluster.get({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'leaf-config', namespace },
      }),
    ).toBeUndefined();
    const inventory = await readInventory(cluster, inventoryLocation(smaller));
    expect(inventory?.objects.some((o) => o.component === 'leaf')).toBe(false);
    expect(
      await cluster.get({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace } }),
    ).toBeDefined();
    expect(pruneEvents.events.map((e) => e.type)).toContain('object-gone');

    await destroy(smaller, { cluster, propagationPolicy: 'Background' });
  });
});

describe('the port', () => {
  test('opens one watch per kind and namespace, however many objects are observed', async () => {
    // GIVEN a fresh port and a cloud with ten components in one namespace
    const namespace = freshNamespace('watch');
    const port = await KubeCluster.connect({ kubeconfig: kubeconfigFromEnv() });
    const components = Array.from({ length: 10 }, (_, i): FixtureComponent => ({ name: `w${i}` }));
    const graph = graphFromManifests(fixtureCloud('watch', namespace, components));
    try {
      // WHEN
      const result = await deploy(graph, { cluster: port });

      // THEN 20 objects of two kinds (plus the namespace and the inventory) needed at most a watch each per kind
      expect(result.ok).toBe(true);
      expect(port.requests.snapshot().byVerb.watch).toBeLessThanOrEqual(4);
      await destroy(graph, { cluster: port, propagationPolicy: 'Background' });
    } finally {
      port.close();
    }
  });
});
