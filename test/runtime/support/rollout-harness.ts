/** What the rollout tests share: a manual clock, an in-memory cluster, a recorder of the run's events and a small graph. */
import { ComponentGraph } from '../../../lib/graph';
import { rollout } from '../../../lib/runtime/operations/rollout';
import { RolloutOptions } from '../../../lib/runtime/operations/rollout-options';
import { InMemoryCluster, SIM_FAIL, SIM_READY_AFTER_MS } from '../../../lib/testing/in-memory-cluster';
import { ManualClock } from '../../../lib/testing/manual-clock';
import {
  component,
  configMap,
  deployment,
  EventRecorder,
  testGraph,
  job,
  namespace,
  service,
} from './manifests';

/** Annotations that make the in-memory cluster report an object ready `ms` after it was applied. */
export const after = (ms: number) => ({ [SIM_READY_AFTER_MS]: String(ms) });

/** A rollout against an in-memory cluster on a manual clock; `run` settles the clock. */
export function setup(options: { eventDelivery?: 'before-apply-returns' | 'after-apply-returns' } = {}) {
  const clock = new ManualClock();
  const cluster = new InMemoryCluster({ clock, eventDelivery: options.eventDelivery });
  const recorder = new EventRecorder();
  const run = (graph: ComponentGraph, extra: RolloutOptions = {}) =>
    clock.runUntilSettled(rollout(graph, cluster, { clock, onEvent: recorder.onEvent, ...extra }));
  return { clock, cluster, recorder, run };
}

/** A small OpenStack-shaped graph: mariadb -> keystone-db-sync (Job) -> keystone-api; memcached independent. */
export function keystoneGraph(opts: { failSync?: boolean } = {}): ComponentGraph {
  return testGraph(
    [namespace()],
    component(
      'mariadb',
      {},
      configMap('mariadb-config'),
      service('mariadb'),
      deployment('mariadb', after(3000)),
    ),
    component('memcached', {}, deployment('memcached', after(1000))),
    component(
      'keystone-db-sync',
      { needs: { mariadb: 'ready' } },
      job('keystone-db-sync', {
        ...after(2000),
        ...(opts.failSync
          ? { [SIM_FAIL]: 'BackoffLimitExceeded: Job has reached the specified backoff limit' }
          : {}),
      }),
    ),
    component(
      'keystone-api',
      { needs: { 'keystone-db-sync': 'completed', memcached: 'ready' } },
      deployment('keystone-api', after(1000)),
      service('keystone-api'),
    ),
    component('glance-api', { needs: { 'keystone-api': 'ready' } }, deployment('glance-api')),
  );
}
