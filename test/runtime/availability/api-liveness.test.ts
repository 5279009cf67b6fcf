import { ApiAvailability } from '../../../lib/runtime/availability/api-availability';
import { ApiLiveness } from '../../../lib/runtime/kube/api-liveness';
import { ManualClock } from '../../../lib/testing/manual-clock';

/** A probe that answers while `up`, and otherwise fails after its timeout, as a silent server does. */
function scriptedServer(clock: ManualClock) {
  const server = { up: true, probes: [] as number[] };
  const probe = async (timeoutMs: number) => {
    server.probes.push(clock.now());
    if (server.up) return;
    await clock.sleep(timeoutMs);
    throw new Error(`no answer to GET /readyz within ${timeoutMs} ms`);
  };
  return { server, probe };
}

describe('ApiLiveness', () => {
  test('a server that stops answering while in use is marked lost within interval + 2 probes, and available on its first answer', async () => {
    // GIVEN a port in use (a watch is open) of a server that answered, and goes silent at 2 s
    const clock = new ManualClock(0);
    const availability = new ApiAvailability({ clock, lossTimeoutMs: 120_000 });
    const { server, probe } = scriptedServer(clock);
    const liveness = new ApiLiveness(probe, availability, {
      clock,
      intervalMs: 5_000,
      timeoutMs: 3_000,
      confirmAfterMs: 1_000,
    });
    liveness.answered();
    const release = liveness.use();
    await clock.advance(2_000);
    server.up = false;

    // WHEN
    await clock.advance(20_000);

    // THEN lost at 5 s (heartbeat) + 3 s (probe) + 1 s + 3 s (confirming probe) = 12 s
    const state = availability.current;
    expect(state.state).toBe('lost');
    expect(state.state === 'lost' && state.since).toBe(12_000);

    // WHEN it answers again (a probe already under way still times out)
    server.up = true;
    await clock.advance(5_000);

    // THEN
    expect(availability.current.state).toBe('available');
    release();
    liveness.close();
  });

  test('a failed request is checked at once; one failed probe followed by an answer is not a loss', async () => {
    // GIVEN
    const clock = new ManualClock(0);
    const availability = new ApiAvailability({ clock });
    let calls = 0;
    const liveness = new ApiLiveness(
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('connect ECONNRESET');
      },
      availability,
      { clock },
    );

    // WHEN
    const answered = liveness.check();
    await clock.advance(1_000);

    // THEN
    await expect(answered).resolves.toBe(true);
    expect(calls).toBe(2);
    expect(availability.current.state).toBe('available');
    liveness.close();
  });

  test('nothing is probed while the port is idle', async () => {
    // GIVEN
    const clock = new ManualClock(0);
    const { server, probe } = scriptedServer(clock);
    const liveness = new ApiLiveness(probe, new ApiAvailability({ clock }), { clock, intervalMs: 5_000 });
    liveness.use()();

    // WHEN
    await clock.advance(60_000);

    // THEN
    expect(server.probes).toEqual([]);
    liveness.close();
  });

  test('a server that never answered is not probed while in use: it cannot be lost, only unreachable', async () => {
    // GIVEN a request under way to a server that has not answered yet
    const clock = new ManualClock(0);
    const availability = new ApiAvailability({ clock, lossTimeoutMs: 120_000 });
    const { server, probe } = scriptedServer(clock);
    server.up = false;
    const liveness = new ApiLiveness(probe, availability, { clock, intervalMs: 5_000 });
    const release = liveness.use();

    // WHEN the heartbeat's interval passes many times
    await clock.advance(60_000);

    // THEN nothing was probed and no loss timer runs: the request fails at its own timeout
    expect(server.probes).toEqual([]);
    expect(availability.current.state).toBe('available');
    release();
    liveness.close();
    expect(clock.pendingTimers).toBe(0);
  });

  test('closing while a check is under way starts no loss timer and no recovery probes', async () => {
    // GIVEN a reached server gone silent, and a check under way (its first probe failed)
    const clock = new ManualClock(0);
    const availability = new ApiAvailability({ clock, lossTimeoutMs: 120_000 });
    const { server, probe } = scriptedServer(clock);
    const liveness = new ApiLiveness(probe, availability, { clock, timeoutMs: 3_000, confirmAfterMs: 1_000 });
    liveness.answered();
    server.up = false;
    const checked = liveness.check();
    await clock.advance(3_500);

    // WHEN the port closes (the command ended) before the confirming probe
    liveness.close();
    await clock.advance(10_000);

    // THEN the check gives no verdict, the server is not marked lost, and nothing is left to run
    await expect(checked).resolves.toBe(true);
    expect(availability.current.state).toBe('available');
    expect(server.probes).toEqual([0]);
    expect(clock.pendingTimers).toBe(0);
  });
});
