/**
 * `pulumi up` of the reference cloud (Pulumi.yaml -> stacks/pulumi-main.ts) against the live test
 * cluster, with the real Pulumi CLI v3.248.0, Node.js language host v3.68.0 and Kubernetes provider
 * 4.25.0, all three built from Go modules by scripts/pulumi/build.sh (docs/pulumi.md says why these
 * versions). The suite fails, saying how to build them, when they are missing.
 *
 * What it proves, each from the cluster's side rather than from Pulumi's log:
 * - `pulumi up` creates every object, and no component starts before its gating dependencies are
 *   ready (watch events, ordered by resourceVersion; see support/object-history.ts);
 * - `pulumi preview --expect-no-changes` right after finds nothing to do;
 * - a per-service option changed with `pulumi config set` previews as exactly that field of that
 *   component's object, and `pulumi up` writes that one object and rolls it (the API server's
 *   audit log of the provider's writes);
 * - `pulumi destroy` leaves nothing: the namespaces, which outlive their last objects, are gone.
 *
 * Offline: local file backend, generated passphrase and PULUMI_HOME in a temp dir, no plugin
 * download, no update check (support/pulumi-cli.ts).
 */
import { App } from 'cdk8s';
import { graphFromManifests, KubeObject } from '../../lib/graph';
import { KubeCluster } from '../../lib/runtime/kube/kube-cluster';
import { referenceCloud } from '../../stacks/reference-cloud';
import { auditedWrites, auditLogOffset, requiredAuditLogFile } from './support/audit-log';
import { kubeconfigFromEnv } from './support/cluster';
import {
  connect,
  deleteTestNamespace,
  E2E_NAMESPACE_LABEL,
  isNotFound,
  Kube,
  uniqueSuffix,
  waitFor,
} from './support/kube';
import { ObjectHistory } from './support/object-history';
import { PulumiWorkspace } from './support/pulumi-cli';

/** How the Kubernetes provider introduces itself to the API server (its user agent's start). */
const PROVIDER_USER_AGENT = 'pulumi-kubernetes/';
const MEMCACHED_IMAGE = 'docker.io/library/memcached:1.6.39';

/** One step of `pulumi preview --json`. */
interface PreviewStep {
  readonly op: string;
  readonly urn: string;
  readonly detailedDiff?: Record<string, unknown>;
}

/** The part of `pulumi preview --json` the tests read. */
interface Preview {
  readonly steps: readonly PreviewStep[];
  readonly changeSummary: Record<string, number>;
}

/** The logical name at the end of a URN (`…::memcached:StatefulSet:ns/memcached`). */
function logicalName(urn: string): string {
  return urn.slice(urn.lastIndexOf('::') + 2);
}

/** Wall times of the Pulumi commands, printed at the end for docs/pulumi.md. */
const timings: Record<string, number> = {};

describe('pulumi up of the reference cloud', () => {
  const namespace = `sw-pulumi-${uniqueSuffix()}`;
  const stack = `e2e-${namespace}`;
  // The cloud the program builds from the stack config set below.
  const objects = referenceCloud(new App(), 'openstack', {
    namespace,
    labels: { [E2E_NAMESPACE_LABEL]: 'true' },
  }).toJson() as KubeObject[];
  const graph = graphFromManifests(objects);
  const namespaced = objects.filter((o) => o.metadata.namespace !== undefined);
  let kube: Kube;
  let cluster: KubeCluster;
  let workspace: PulumiWorkspace;
  let history: ObjectHistory | undefined;
  let destroyed = false;

  const pulumi = (...args: string[]) => workspace.runStack(stack, ...args);
  const timed = async (what: string, ...args: string[]) => {
    const run = await pulumi(...args);
    timings[what] = run.seconds;
    return run;
  };

  beforeAll(async () => {
    // First, so missing binaries fail the suite before anything touches the cluster.
    workspace = PulumiWorkspace.create(kubeconfigFromEnv());
    kube = connect();
    cluster = await KubeCluster.connect({ kubeconfig: kube.kubeconfigPath });
    // No build step: Pulumi.yaml runs the TypeScript program from source (bin/pulumi-program.js),
    // exactly as a user would right after editing it.
    await workspace.run('stack', 'init', stack);
    await pulumi('config', 'set', 'stackwright:namespace', namespace);
    // A label key with dots and a slash needs the bracket form of a config path; the value `true`
    // would be stored as a boolean without --type.
    await pulumi(
      'config',
      'set',
      '--path',
      `stackwright:labels["${E2E_NAMESPACE_LABEL}"]`,
      'true',
      '--type',
      'string',
    );
    await pulumi('config', 'set', '--secret', 'stackwright:adminPassword', 'e2e-admin');
  }, 10 * 60_000);

  afterAll(async () => {
    if (!workspace) return; // the binaries were missing: nothing was deployed
    history?.stop();
    try {
      if (!destroyed) await pulumi('destroy', '--yes', '--skip-preview');
      await workspace.run('stack', 'rm', '--yes', '--force', stack);
    } finally {
      for (const ns of [namespace, `${namespace}-agents`]) await deleteTestNamespace(kube, ns);
      cluster.close();
      workspace.remove();
      process.stderr.write(`[e2e] pulumi wall times (s): ${JSON.stringify(timings)}\n`);
    }
  }, 15 * 60_000);

  test(
    'creates every object, each component only after its gating dependencies are ready',
    async () => {
      // GIVEN every kind of the cloud watched in its namespaces from before the first write
      history = await ObjectHistory.record(cluster, objects);

      // WHEN
      const run = await timed('up', 'up', '--yes', '--skip-preview');

      // THEN Pulumi created the objects, the admin credentials from config, one resource per
      // component, the cloud and the stack
      const expected = objects.length + 1 + graph.components.length + 2;
      expect(run.stdout).toMatch(new RegExp(`\\+ ${expected} created`));
      // AND the cluster saw every object, none of a component before its gating dependencies were
      // ready (workloads) or created (everything else), and every workload ended ready
      expect(history.unseen(namespaced)).toEqual([]);
      expect(history.orderViolations(graph.components)).toEqual([]);
      expect(history.neverReady(namespaced)).toEqual([]);
      // AND the admin password came from the stack config, not from the generator Job
      const secret = await kube.core.readNamespacedSecret({ name: 'keystone-admin-credentials', namespace });
      expect(Buffer.from(secret.data?.password ?? '', 'base64').toString()).toBe('e2e-admin');
    },
    30 * 60_000,
  );

  test(
    'a preview right after finds nothing to change',
    async () => {
      // WHEN (fails on any change: --expect-no-changes)
      const run = await timed('preview', 'preview', '--expect-no-changes', '--json');

      // THEN
      const preview = JSON.parse(run.stdout) as Preview;
      expect(preview.steps.filter((s) => s.op !== 'same')).toEqual([]);
      expect(Object.keys(preview.changeSummary)).toEqual(['same']);
    },
    10 * 60_000,
  );

  test(
    "a service's image changed in stack config diffs and rolls that component's StatefulSet only",
    async () => {
      // GIVEN
      const audit = requiredAuditLogFile();
      await pulumi('config', 'set', '--path', 'stackwright:services.memcached.image', MEMCACHED_IMAGE);

      // WHEN previewed
      const preview = JSON.parse(
        (await timed('preview-change', 'preview', '--diff', '--json')).stdout,
      ) as Preview;

      // THEN exactly the image of the memcached StatefulSet changes
      expect(
        preview.steps
          .filter((s) => s.op !== 'same')
          .map((s) => ({ op: s.op, name: logicalName(s.urn), fields: Object.keys(s.detailedDiff ?? {}) })),
      ).toEqual([
        {
          op: 'update',
          name: `memcached:StatefulSet:${namespace}/memcached`,
          fields: ['spec.template.spec.containers[0].image'],
        },
      ]);

      // WHEN applied
      const offset = auditLogOffset(audit);
      await timed('up-change', 'up', '--yes', '--skip-preview');

      // THEN the provider wrote that one object and nothing else: provider 4.25.0 sends two patches
      // per update, a managed-fields fix-up and then its server-side apply (the audit backend writes
      // asynchronously, hence the pause)
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const writes = auditedWrites(audit, offset, PROVIDER_USER_AGENT, namespace);
      expect([...new Set(writes)]).toEqual(['patch statefulsets memcached']);
      // AND the StatefulSet rolled: every pod runs the new image
      const sts = await kube.apps.readNamespacedStatefulSet({ name: 'memcached', namespace });
      expect(sts.status?.currentRevision).toBe(sts.status?.updateRevision);
      const selector = Object.entries(sts.spec?.selector.matchLabels ?? {})
        .map(([key, value]) => `${key}=${value}`)
        .join(',');
      const pods = await kube.core.listNamespacedPod({ namespace, labelSelector: selector });
      expect(pods.items.map((p) => p.spec?.containers[0].image)).toEqual(
        Array(sts.spec?.replicas).fill(MEMCACHED_IMAGE),
      );
    },
    20 * 60_000,
  );

  test(
    'destroy leaves nothing behind',
    async () => {
      // WHEN
      history?.stop();
      const run = await timed('destroy', 'destroy', '--yes', '--skip-preview');
      destroyed = true;

      // THEN the stack is empty
      expect(run.stdout).toMatch(/- \d+ deleted/);
      const state = JSON.parse((await workspace.run('stack', 'export', '--stack', stack)).stdout) as {
        deployment: { resources?: unknown[] };
      };
      expect(state.deployment.resources ?? []).toEqual([]);
      // AND both namespaces are gone: the namespace controller removes one only after its last object
      for (const ns of [namespace, `${namespace}-agents`])
        await waitFor(
          `namespace ${ns} to be gone`,
          async () => {
            try {
              await kube.core.readNamespace({ name: ns });
              return undefined;
            } catch (error) {
              if (isNotFound(error)) return true;
              throw error;
            }
          },
          { timeoutMs: 120_000 },
        );
    },
    15 * 60_000,
  );
});
