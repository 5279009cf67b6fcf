/** How an object is applied: field manager, conflicts, retries with back-off (lib/runtime/engine/object-session.ts), through a rollout. */
import { rollout } from '../../../lib/runtime/operations/rollout';
import { ApplyConflictError } from '../../../lib/runtime/ports';
import { InMemoryCluster } from '../../../lib/testing/in-memory-cluster';
import { setup } from '../support/rollout-harness';
import { component, configMap, deployment, testGraph, NS } from '../support/manifests';

describe('applying an object', () => {
  test('an apply conflict fails the component with the conflicting manager and is not retried', async () => {
    // GIVEN
    const { run, cluster } = setup();
    const ref = `Deployment/${NS}/keystone-api`;
    cluster.failApply(
      ref,
      new ApplyConflictError(ref, [{ manager: 'kubectl-edit', field: '.spec.replicas' }]),
    );

    // WHEN
    const result = await run(testGraph(component('keystone-api', {}, deployment('keystone-api'))));

    // THEN
    expect(result.components[0].state).toBe('failed');
    expect(result.components[0].reason).toContain('kubectl-edit (.spec.replicas)');
    expect(result.components[0].reason).toContain('--force-conflicts');
    expect(cluster.calls('apply-error')).toHaveLength(1);
  });

  test('passes the field manager and force flag to every apply', async () => {
    // GIVEN
    const { clock, cluster } = setup();
    const seen: unknown[] = [];
    const spy: typeof cluster.apply = (object, options) => {
      seen.push(options);
      return InMemoryCluster.prototype.apply.call(cluster, object, options);
    };
    cluster.apply = spy;

    // WHEN
    await clock.runUntilSettled(
      rollout(testGraph(component('a', {}, configMap('a'))), cluster, { clock, forceConflicts: true }),
    );

    // THEN
    expect(seen).toEqual([{ fieldManager: 'stackwright', force: true, dryRun: false }]);
  });

  test('retries retryable apply errors with back-off, then succeeds', async () => {
    // GIVEN: the CR's kind is not served for the first two attempts (a CRD just established).
    const { run, cluster } = setup();
    const ref = `ConfigMap/${NS}/flaky`;
    cluster.failApply(ref, (attempt) =>
      attempt <= 2
        ? Object.assign(new Error('the server is currently unable to handle the request'), {
            retryable: true,
          })
        : undefined,
    );

    // WHEN
    const result = await run(testGraph(component('flaky', {}, configMap('flaky'))));

    // THEN
    expect(result.components[0].state).toBe('verified');
    expect(cluster.calls('apply-error')).toHaveLength(2);
  });

  test('gives up on a retryable error after applyAttempts and says so', async () => {
    // GIVEN
    const { run, cluster } = setup();
    const ref = `ConfigMap/${NS}/down`;
    cluster.failApply(ref, Object.assign(new Error('503 Service Unavailable'), { retryable: true }));

    // WHEN
    const result = await run(testGraph(component('down', {}, configMap('down'))), { applyAttempts: 3 });

    // THEN
    expect(result.components[0].reason).toBe(
      `${ref}: apply failed: 503 Service Unavailable (after 3 attempts)`,
    );
    expect(cluster.calls('apply-error')).toHaveLength(3);
  });

  test('a non-retryable apply error fails at once', async () => {
    // GIVEN
    const { run, cluster } = setup();
    cluster.failApply(
      `ConfigMap/${NS}/bad`,
      new Error('ConfigMap "bad" is invalid: data[BAD KEY]: Invalid value'),
    );

    // WHEN
    const result = await run(testGraph(component('bad', {}, configMap('bad'))));

    // THEN
    expect(result.components[0].reason).toBe(
      `ConfigMap/${NS}/bad: apply failed: ConfigMap "bad" is invalid: data[BAD KEY]: Invalid value`,
    );
    expect(cluster.calls('apply-error')).toHaveLength(1);
  });
});
