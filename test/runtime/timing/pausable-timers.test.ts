import { PausableTimers } from '../../../lib/runtime/timing/pausable-timers';
import { ManualClock } from '../../../lib/testing/manual-clock';

describe('PausableTimers', () => {
  test('a paused timer fires later by exactly the time it was paused', async () => {
    // GIVEN a 60 s timer, paused from 10 s to 30 s
    const clock = new ManualClock(0);
    const timers = new PausableTimers(clock);
    const fired: number[] = [];
    timers.start(60_000, () => fired.push(clock.now()));
    await clock.advance(10_000);
    timers.pause();
    await clock.advance(20_000);

    // WHEN
    const lasted = timers.resume();
    await clock.advance(60_000);

    // THEN
    expect(lasted).toBe(20_000);
    expect(fired).toEqual([80_000]);
  });

  test('a timer started while paused starts counting on resume; a cancelled one never fires', async () => {
    // GIVEN
    const clock = new ManualClock(0);
    const timers = new PausableTimers(clock);
    const fired: string[] = [];
    timers.pause();
    timers.start(5_000, () => fired.push(`late at ${clock.now()}`));
    const cancel = timers.start(1_000, () => fired.push('cancelled'));
    await clock.advance(10_000);

    // WHEN
    cancel();
    timers.resume();
    await clock.advance(10_000);

    // THEN
    expect(fired).toEqual(['late at 15000']);
    expect(timers.paused).toBe(false);
  });
});
