import { ExponentialBackOff } from '../../../lib/runtime/timing/exponential-back-off';

describe('ExponentialBackOff', () => {
  test('grows by base from start up to max, then stays at max', () => {
    // GIVEN
    const backOff = new ExponentialBackOff({ base: 2, start: 100, max: 1000 });

    // WHEN
    const delays = Array.from({ length: 7 }, () => backOff.next());

    // THEN
    expect(delays).toEqual([100, 200, 400, 800, 1000, 1000, 1000]);
  });

  test('is iterable', () => {
    // GIVEN
    const backOff = new ExponentialBackOff({ base: 3, start: 1, max: 20 });

    // WHEN
    const delays: number[] = [];
    for (const d of backOff) {
      delays.push(d);
      if (delays.length === 5) break;
    }

    // THEN
    expect(delays).toEqual([1, 3, 9, 20, 20]);
  });

  test('reset starts over and clears failing', () => {
    // GIVEN
    const backOff = new ExponentialBackOff({ start: 10, max: 100 });
    expect(backOff.failing).toBe(false);
    backOff.next();
    backOff.next();
    expect(backOff.failing).toBe(true);

    // WHEN
    backOff.reset();

    // THEN
    expect(backOff.failing).toBe(false);
    expect(backOff.next()).toBe(10);
  });

  test('jitter spreads each delay over delay * (1 ± jitter)', () => {
    // GIVEN: randomness at both extremes and the middle
    const randoms = [0, 0.5, 0.999999];
    const backOff = new ExponentialBackOff({
      base: 1,
      start: 1000,
      max: 1000,
      jitter: 0.2,
      random: () => randoms.shift() ?? 0.5,
    });

    // WHEN
    const delays = [backOff.next(), backOff.next(), backOff.next()];

    // THEN
    expect(delays[0]).toBe(800);
    expect(delays[1]).toBe(1000);
    expect(delays[2]).toBeCloseTo(1200, 2);
  });

  test('validates its settings', () => {
    expect(() => new ExponentialBackOff({ base: 0.5 })).toThrow('base must be >= 1');
    expect(() => new ExponentialBackOff({ start: 10, max: 5 })).toThrow('max (5) must be >= start (10)');
    expect(() => new ExponentialBackOff({ jitter: 1 })).toThrow('jitter must be in [0, 1)');
  });
});
