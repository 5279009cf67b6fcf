import { KubeObject } from '../../../lib/graph';
import { KubeApiError } from '../../../lib/runtime/kube/errors';
import { ListResult, RawWatchEvent, SharedWatch, WatchSource } from '../../../lib/runtime/kube/shared-watch';
import { WatchEventType } from '../../../lib/runtime/ports';
import { Clock, ExponentialBackOff } from '../../../lib/runtime/timing';

function cm(name: string, rv: string): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns', resourceVersion: rv } };
}

type Step = (emit: (event: RawWatchEvent) => void) => Promise<void>;

/**
 * A scripted list/watch source: `lists` answers successive LISTs, `watches` successive WATCH
 * requests (each step emits events and then ends, fails or hangs until aborted). Records calls.
 */
function scripted(lists: ListResult[], watches: Step[]) {
  const calls: string[] = [];
  const source: WatchSource = {
    async list() {
      calls.push('list');
      const next = lists.shift();
      if (!next) throw new Error('unexpected LIST');
      return next;
    },
    watch(resourceVersion, onEvent, signal) {
      calls.push(`watch@${resourceVersion}`);
      const step = watches.shift();
      if (!step)
        return new Promise<void>((_, reject) =>
          signal.addEventListener('abort', () => reject(new Error('aborted'))),
        );
      return step(onEvent);
    },
  };
  return { source, calls };
}

const noDelay = () => new ExponentialBackOff({ start: 0, max: 0 });
/** Back-off sleeps end at once: the tests check what happens, not how long it takes. */
const instantClock: Clock = { now: () => 0, sleep: async () => undefined };

function recorder() {
  const events: string[] = [];
  const listener = (type: WatchEventType, object: KubeObject) =>
    events.push(`${type} ${object.metadata.name}@${String(object.metadata.resourceVersion)}`);
  return { events, listener };
}

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('SharedWatch', () => {
  test('lists, then watches from the list resourceVersion, delivering both', async () => {
    // GIVEN a list with one object and a watch that adds another
    const { source, calls } = scripted(
      [{ items: [cm('a', '5')], resourceVersion: '10' }],
      [
        async (emit) => emit({ type: 'ADDED', object: cm('b', '11') }),
        async () => new Promise(() => undefined),
      ],
    );
    const watch = new SharedWatch(source, { backOff: noDelay() });
    const { events, listener } = recorder();

    // WHEN a subscriber joins
    const stop = watch.subscribe(listener);
    await settle();

    // THEN it saw the listed object, then the watched one, and the watch resumed from 11
    expect(events).toEqual(['ADDED a@5', 'ADDED b@11']);
    expect(calls).toEqual(['list', 'watch@10', 'watch@11']);
    stop();
  });

  test('shares one LIST+WATCH between subscribers and replays the snapshot to late joiners', async () => {
    // GIVEN a running watch with one subscriber
    const { source, calls } = scripted([{ items: [cm('a', '5')], resourceVersion: '10' }], []);
    const watch = new SharedWatch(source, { backOff: noDelay() });
    const first = recorder();
    const second = recorder();
    watch.subscribe(first.listener);
    await watch.whenSynced();

    // WHEN a second subscriber joins
    watch.subscribe(second.listener);
    await settle();

    // THEN it got the snapshot without another request
    expect(second.events).toEqual(['ADDED a@5']);
    expect(calls).toEqual(['list', 'watch@10']);
    watch.stop();
  });

  test('re-lists after 410 Gone and reports what changed while it was away', async () => {
    // GIVEN a watch whose stream says "too old", and a second list where a was deleted and b changed
    const { source, calls } = scripted(
      [
        { items: [cm('a', '5'), cm('b', '6')], resourceVersion: '10' },
        { items: [cm('b', '20'), cm('c', '21')], resourceVersion: '22' },
      ],
      [
        async (emit) =>
          emit({ type: 'ERROR', object: { kind: 'Status', code: 410, message: 'too old resource version' } }),
      ],
    );
    const watch = new SharedWatch(source, { backOff: noDelay() });
    const { events, listener } = recorder();

    // WHEN
    watch.subscribe(listener);
    await settle();

    // THEN the relist produced MODIFIED/ADDED/DELETED, and watching resumed from the new list
    expect(calls).toEqual(['list', 'watch@10', 'list', 'watch@22']);
    expect(events).toEqual(['ADDED a@5', 'ADDED b@6', 'MODIFIED b@20', 'ADDED c@21', 'DELETED a@5']);
    watch.stop();
  });

  test('treats an HTTP 410 on the watch request like a 410 event', async () => {
    const { source, calls } = scripted(
      [
        { items: [], resourceVersion: '10' },
        { items: [], resourceVersion: '30' },
      ],
      [async () => Promise.reject(new KubeApiError(410, 'Expired', 'too old'))],
    );
    const watch = new SharedWatch(source, { backOff: noDelay() });
    watch.subscribe(() => undefined);
    await settle();
    expect(calls).toEqual(['list', 'watch@10', 'list', 'watch@30']);
    watch.stop();
  });

  test('resumes from the last seen resourceVersion after a dropped connection, without re-listing', async () => {
    // GIVEN a stream that delivers an event and a bookmark, then drops
    const errors: unknown[] = [];
    const { source, calls } = scripted(
      [{ items: [], resourceVersion: '10' }],
      [
        async (emit) => {
          emit({ type: 'ADDED', object: cm('a', '11') });
          emit({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '15' } } });
          throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
        },
      ],
    );
    const watch = new SharedWatch(source, {
      backOff: noDelay(),
      clock: instantClock,
      onError: (e) => errors.push(e),
    });

    // WHEN
    watch.subscribe(() => undefined);
    await settle();

    // THEN the error was reported, and the watch resumed from the bookmark
    expect(errors).toHaveLength(1);
    expect(calls).toEqual(['list', 'watch@10', 'watch@15']);
    expect(watch.cached('ns', 'a')?.metadata.resourceVersion).toBe('11');
    watch.stop();
  });

  test('backs off after a failing LIST and keeps trying', async () => {
    // GIVEN a first LIST that fails
    let listCalls = 0;
    const delays: number[] = [];
    const backOff = new ExponentialBackOff({ start: 0, max: 0 });
    const next = backOff.next.bind(backOff);
    backOff.next = () => {
      const d = next();
      delays.push(d);
      return d;
    };
    const source: WatchSource = {
      async list() {
        listCalls += 1;
        if (listCalls === 1) throw new Error('connection refused');
        return { items: [cm('a', '1')], resourceVersion: '1' };
      },
      watch: (_rv, _on, signal) =>
        new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')))),
    };
    const watch = new SharedWatch(source, { backOff, clock: instantClock });

    // WHEN
    watch.subscribe(() => undefined);
    await watch.whenSynced();

    // THEN one back-off delay was drawn and the second LIST synced the watch
    expect(delays).toHaveLength(1);
    expect(listCalls).toBe(2);
    expect(watch.cached('ns', 'a')).toBeDefined();
    watch.stop();
  });

  test('stops streaming when the last subscriber leaves (no linger)', async () => {
    // GIVEN
    let aborted = false;
    const source: WatchSource = {
      list: async () => ({ items: [], resourceVersion: '1' }),
      watch: (_rv, _on, signal) =>
        new Promise((_, reject) =>
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('aborted'));
          }),
        ),
    };
    const watch = new SharedWatch(source, { backOff: noDelay(), lingerMs: 0 });
    const a = watch.subscribe(() => undefined);
    const b = watch.subscribe(() => undefined);
    await settle();

    // WHEN one leaves, then the other
    a();
    await settle();
    const afterFirst = aborted;
    b();
    await settle();

    // THEN the stream ended only with the last one
    expect(afterFirst).toBe(false);
    expect(aborted).toBe(true);
  });
});
