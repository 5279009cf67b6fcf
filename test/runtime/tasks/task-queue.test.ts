import { ManualClock, flushMicrotasks } from '../../../lib/runtime/tasks/manual-clock';
import { TaskQueue } from '../../../lib/runtime/tasks/task-queue';

describe('TaskQueue', () => {
  test('runs tasks in the order they were enqueued', async () => {
    // GIVEN
    const clock = new ManualClock();
    const queue = new TaskQueue({ clock });
    const ran: string[] = [];
    for (const key of ['a', 'b', 'c']) queue.enqueue(key, async () => void ran.push(key));

    // WHEN
    const running = queue.run();
    await flushMicrotasks();
    queue.stop();
    await running;

    // THEN
    expect(ran).toEqual(['a', 'b', 'c']);
  });

  test('de-duplicates by key: the newest task of a waiting key wins', async () => {
    // GIVEN
    const clock = new ManualClock();
    const queue = new TaskQueue({ clock });
    const ran: string[] = [];
    queue.enqueue('a', async () => void ran.push('a1'));
    queue.enqueue('b', async () => void ran.push('b'));
    queue.enqueue('a', async () => void ran.push('a2'));
    expect(queue.size).toBe(2);

    // WHEN
    const running = queue.run();
    await flushMicrotasks();
    queue.stop();
    await running;

    // THEN
    expect(ran).toEqual(['a2', 'b']);
  });

  test('retries a failing task with exponential back-off without blocking the others', async () => {
    // GIVEN
    const clock = new ManualClock(0);
    const errors: [string, number][] = [];
    const queue = new TaskQueue({
      clock,
      backOffStart: 1000,
      backOffMax: 4000,
      jitter: 0,
      onError: (key, _e, retryIn) => errors.push([key, retryIn]),
    });
    const attempts: number[] = [];
    const ran: string[] = [];
    queue.enqueue('flaky', async () => {
      attempts.push(clock.now());
      if (attempts.length < 4) throw new Error('not yet');
    });
    queue.enqueue('fine', async () => void ran.push('fine'));

    // WHEN
    const running = queue.run();
    await clock.advance(10_000);
    queue.stop();
    await running;

    // THEN
    expect(ran).toEqual(['fine']);
    expect(attempts).toEqual([0, 1000, 3000, 7000]);
    expect(errors).toEqual([
      ['flaky', 1000],
      ['flaky', 2000],
      ['flaky', 4000],
    ]);
    expect(queue.size).toBe(0);
  });

  test('jitters retries so tasks failing together do not retry together', async () => {
    // GIVEN
    const clock = new ManualClock(0);
    const randoms = [0, 1 - 1e-9];
    const queue = new TaskQueue({
      clock,
      backOffStart: 1000,
      jitter: 0.5,
      random: () => randoms.shift() ?? 0.5,
      concurrency: 2,
    });
    const attempts: Record<string, number[]> = { x: [], y: [] };
    for (const key of ['x', 'y']) {
      queue.enqueue(key, async () => {
        attempts[key].push(clock.now());
        if (attempts[key].length === 1) throw new Error('first attempt fails');
      });
    }

    // WHEN
    const running = queue.run();
    await clock.advance(5000);
    queue.stop();
    await running;

    // THEN
    expect(attempts.x).toEqual([0, 500]);
    expect(attempts.y[1]).toBeCloseTo(1500, 0);
  });

  test('enqueueing a running key runs it once more afterwards', async () => {
    // GIVEN
    const clock = new ManualClock(0);
    const queue = new TaskQueue({ clock });
    const ran: string[] = [];
    let release: () => void = () => undefined;
    queue.enqueue(
      'a',
      () => new Promise<void>((resolve) => (release = () => (ran.push('first'), resolve()))),
    );
    const running = queue.run();
    await flushMicrotasks();

    // WHEN
    queue.enqueue('a', async () => void ran.push('second'));
    await flushMicrotasks();
    expect(ran).toEqual([]);
    release();
    await flushMicrotasks();
    queue.stop();
    await running;

    // THEN
    expect(ran).toEqual(['first', 'second']);
  });

  test('does nothing unless run() is running', async () => {
    // GIVEN
    const queue = new TaskQueue({ clock: new ManualClock() });
    const ran: string[] = [];

    // WHEN
    queue.enqueue('a', async () => void ran.push('a'));
    await flushMicrotasks();

    // THEN
    expect(ran).toEqual([]);
    expect(queue.size).toBe(1);
  });

  test('respects its concurrency', async () => {
    // GIVEN
    const clock = new ManualClock(0);
    const queue = new TaskQueue({ clock, concurrency: 2 });
    let running = 0;
    let max = 0;
    for (const key of ['a', 'b', 'c', 'd', 'e']) {
      queue.enqueue(key, async () => {
        running += 1;
        max = Math.max(max, running);
        await clock.sleep(100);
        running -= 1;
      });
    }

    // WHEN
    const loop = queue.run();
    await clock.advance(1000);
    queue.stop();
    await loop;

    // THEN
    expect(max).toBe(2);
    expect(queue.size).toBe(0);
  });
});
