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
    // GIVEN a port in use (a watch is open) and a server that goes silent at 2 s
    const clock = new ManualClock(0);
    const availability = new ApiAvailability({ clock, lossTimeoutMs: 120_000 });
    const { server, probe } = scriptedServer(clock);
    const liveness = new ApiLiveness(probe, availability, {
      clock,
      intervalMs: 5_000,
      timeoutMs: 3_000,
      confirmAfterMs: 1_000,
    });
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
});
