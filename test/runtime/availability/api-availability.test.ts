import { ApiAvailability } from '../../../lib/runtime/availability/api-availability';
import { ApiState } from '../../../lib/runtime/ports';
import { ClusterUnreachableError } from '../../../lib/runtime/cluster-unreachable-error';
import { ManualClock } from '../../../lib/testing/manual-clock';

describe('ApiAvailability', () => {
  test('requests wait while the API server is lost and go on when it is back', async () => {
    // GIVEN
    const clock = new ManualClock(0);
    const availability = new ApiAvailability({ clock, lossTimeoutMs: 60_000 });
    const states: ApiState['state'][] = [];
    availability.subscribe((s) => states.push(s.state));
    availability.lost('connect ECONNREFUSED 127.0.0.1:6443');
    let resumed = false;
    const waiting = availability.whenAvailable().then(() => (resumed = true));

    // WHEN it comes back after 30 s
    await clock.advance(30_000);
    expect(resumed).toBe(false);
    availability.restored();
    await waiting;

    // THEN
    expect(resumed).toBe(true);
    expect(states).toEqual(['lost', 'available']);
    // and the loss timer was stopped: nothing turns it gone later
    await clock.advance(60_000);
    expect(availability.current.state).toBe('available');
  });

  test('a loss longer than the timeout turns into gone: waiting and new requests fail naming the server and the flag', async () => {
    // GIVEN
    const clock = new ManualClock(0);
    const availability = new ApiAvailability({
      clock,
      lossTimeoutMs: 60_000,
      server: 'https://10.0.0.1:6443',
    });
    availability.lost('no answer to GET /readyz within 3000 ms');
    const waiting = availability.whenAvailable().catch((e: unknown) => e);

    // WHEN
    await clock.advance(60_000);

    // THEN
    const error = await waiting;
    expect(error).toBeInstanceOf(ClusterUnreachableError);
    expect((error as Error).message).toBe(
      'the API server at https://10.0.0.1:6443 stopped answering (no answer to GET /readyz within 3000 ms) and did not come back within 1m (--api-loss-timeout)',
    );
    await expect(availability.whenAvailable()).rejects.toThrow(ClusterUnreachableError);
    expect(availability.current).toEqual({
      state: 'gone',
      since: 0,
      reason: 'no answer to GET /readyz within 3000 ms',
    });
    // an answer later still makes it available again
    availability.restored();
    await expect(availability.whenAvailable()).resolves.toBeUndefined();
  });
});
