import { ExponentialBackOff } from '../../../lib/runtime/timing/exponential-back-off';
import { ManualClock, flushMicrotasks } from '../../../lib/testing/manual-clock';
import { RestartingTask } from '../../../lib/runtime/timing/restarting-task';

describe('RestartingTask', () => {
  test('restarts a crashing function with exponential back-off capped at 120 s', async () => {
    // GIVEN
    const clock = new ManualClock(0);
    const starts: number[] = [];
    const crashes: number[] = [];
    const task = new RestartingTask(
      async () => {
        starts.push(clock.now());
        throw new Error('watch connection reset');
      },
      {
        clock,
        onCrash: (_e, restartIn) => crashes.push(restartIn),
        backOff: new ExponentialBackOff({ start: 1000, base: 2, max: 120_000 }),
      },
    );

    // WHEN
    task.start();
    await clock.advance(400_000);
    await task.waitForTermination();

    // THEN
    expect(starts.slice(0, 8)).toEqual([0, 1000, 3000, 7000, 15_000, 31_000, 63_000, 127_000]);
    expect(crashes.slice(0, 9)).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 64_000, 120_000, 120_000]);
    expect(task.running).toBe(false);
  });

  test('the default back-off is capped at 120 s', async () => {
    // GIVEN
    const clock = new ManualClock(0);
    const crashes: number[] = [];
    const task = new RestartingTask(
      async () => {
        throw new Error('boom');
      },
      { clock, onCrash: (_e, restartIn) => crashes.push(restartIn) },
    );

    // WHEN
    task.start();
    await clock.advance(3_600_000);
    await task.waitForTermination();

    // THEN
    expect(Math.max(...crashes)).toBeLessThanOrEqual(120_000 * 1.1);
    expect(Math.max(...crashes)).toBeGreaterThanOrEqual(120_000 * 0.9);
  });

  test('does not restart a function that returned', async () => {
    // GIVEN
    const clock = new ManualClock(0);
    let runs = 0;
    const task = new RestartingTask(async () => void runs++, { clock });

    // WHEN
    task.start();
    await clock.advance(10_000);

    // THEN
    expect(runs).toBe(1);
    expect(task.running).toBe(false);
  });

  test('stop() cancels the function through its signal and does not restart it', async () => {
    // GIVEN
    const clock = new ManualClock(0);
    let runs = 0;
    let sawAbort = false;
    const task = new RestartingTask(
      (signal) =>
        new Promise<void>((_resolve, reject) => {
          runs += 1;
          signal.addEventListener('abort', () => {
            sawAbort = true;
            reject(new Error('cancelled'));
          });
        }),
      { clock },
    );
    task.start();
    await flushMicrotasks();

    // WHEN
    await task.waitForTermination();
    await clock.advance(10_000);

    // THEN
    expect(sawAbort).toBe(true);
    expect(runs).toBe(1);
    expect(task.running).toBe(false);
  });

  test('stop() during the back-off cancels the pending restart', async () => {
    // GIVEN
    const clock = new ManualClock(0);
    let runs = 0;
    const task = new RestartingTask(
      async () => {
        runs += 1;
        throw new Error('boom');
      },
      { clock },
    );
    task.start();
    await flushMicrotasks();
    expect(clock.pendingTimers).toBe(1);

    // WHEN
    task.stop();
    await flushMicrotasks();
    await clock.advance(300_000);

    // THEN
    expect(runs).toBe(1);
    expect(clock.pendingTimers).toBe(0);
  });

  test('start() on a running task only resets the back-off', async () => {
    // GIVEN
    const clock = new ManualClock(0);
    const starts: number[] = [];
    const task = new RestartingTask(
      async () => {
        starts.push(clock.now());
        throw new Error('boom');
      },
      { clock, backOff: new ExponentialBackOff({ start: 1000, max: 120_000 }) },
    );
    task.start();
    await clock.advance(3000); // runs at 0, 1000, 3000; next back-off would be 4000

    // WHEN
    task.start();
    await clock.advance(4000);
    await task.waitForTermination();

    // THEN: after the reset the next waits are 1000 again, not 4000+
    expect(starts).toEqual([0, 1000, 3000, 7000]);
  });

  test('restart() stops the current run and starts a fresh one', async () => {
    // GIVEN
    const clock = new ManualClock(0);
    let runs = 0;
    const task = new RestartingTask(
      (signal) =>
        new Promise<void>((resolve) => {
          runs += 1;
          signal.addEventListener('abort', () => resolve());
        }),
      { clock },
    );
    task.start();
    await flushMicrotasks();

    // WHEN
    task.restart();
    await flushMicrotasks();

    // THEN
    expect(runs).toBe(2);
    expect(task.running).toBe(true);
    await task.waitForTermination();
    expect(task.running).toBe(false);
  });
});
