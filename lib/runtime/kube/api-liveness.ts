import { ApiAvailability } from '../availability/api-availability';
import { errorMessage } from '../error-message';
import { Clock, isAbortError, systemClock } from '../timing/clock';

/** Settings of the liveness probe. */
export interface LivenessOptions {
  /** Probe this often while requests or watches are open. @default 5000 */
  readonly intervalMs?: number;
  /** A probe that takes longer failed. @default 3000 */
  readonly timeoutMs?: number;
  /** Pause between the probe that failed and the one that confirms it; also the re-probe pace while lost. @default 1000 */
  readonly confirmAfterMs?: number;
  /** @default systemClock */
  readonly clock?: Clock;
}

/**
 * Tells a live API server from a lost one, within seconds, by probing it (`GET /readyz` with a
 * short timeout): every `intervalMs` while the port is in use (a server that accepts connections
 * but never answers leaves watches silent and requests hanging, so nothing else would notice), and
 * at once when a request fails at the network level. Two failed probes in a row mark the API
 * server lost in `availability`; while lost it probes every `confirmAfterMs` and marks it available
 * again on the first answer.
 *
 * Only a server that answered once can be lost: before its first answer ({@link answered}) the
 * heartbeat does not probe, so a server that was never reachable fails the first request at its
 * own timeout instead of being waited for through the API-loss timeout. After {@link close}
 * nothing is probed or decided any more, so a check under way cannot start the loss timer (which
 * would keep the process alive for the whole API-loss timeout after the command ended).
 */
export class ApiLiveness {
  private readonly clock: Clock;
  private readonly intervalMs: number;
  readonly timeoutMs: number;
  private readonly confirmAfterMs: number;
  private users = 0;
  private reached = false;
  private closed = false;
  private heartbeat?: AbortController;
  private checking?: Promise<boolean>;
  private recovering?: AbortController;

  constructor(
    /** Resolves when the API server answered in time; rejects (with why) when not. */
    private readonly probe: (timeoutMs: number) => Promise<void>,
    private readonly availability: ApiAvailability,
    options: LivenessOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.intervalMs = options.intervalMs ?? 5_000;
    this.timeoutMs = options.timeoutMs ?? 3_000;
    this.confirmAfterMs = options.confirmAfterMs ?? 1_000;
  }

  /** A request or watch started: probing runs while at least one is open. Returns its `release`. */
  use(): () => void {
    this.users += 1;
    if (!this.heartbeat) this.startHeartbeat();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.users -= 1;
      if (this.users === 0) {
        this.heartbeat?.abort();
        this.heartbeat = undefined;
      }
    };
  }

  /** The API server answered a request: from now on it can be lost, and the heartbeat probes it. */
  answered(): void {
    this.reached = true;
  }

  /**
   * Something failed talking to the API server: probes now (one check shared by every caller).
   * Resolves true when it answers, false when it is now lost (or was already). Once closed it
   * gives no verdict (true): the caller's own retry limit applies.
   */
  check(): Promise<boolean> {
    if (this.closed) return Promise.resolve(true);
    if (this.availability.current.state !== 'available') return Promise.resolve(false);
    this.checking ??= this.confirm().finally(() => (this.checking = undefined));
    return this.checking;
  }

  /** Stops every probe. */
  close(): void {
    this.closed = true;
    this.heartbeat?.abort();
    this.heartbeat = undefined;
    this.recovering?.abort();
    this.recovering = undefined;
    this.availability.close();
  }

  private async confirm(): Promise<boolean> {
    let why = await this.attempt();
    if (why === undefined || this.closed) return true;
    await this.clock.sleep(this.confirmAfterMs);
    if (this.closed) return true;
    why = await this.attempt();
    if (why === undefined || this.closed) return true;
    this.availability.lost(why);
    this.recover();
    return false;
  }

  /** While lost: probe until it answers (or the loss turned into `gone`). */
  private recover(): void {
    if (this.recovering) return;
    const controller = new AbortController();
    this.recovering = controller;
    void (async () => {
      try {
        while (this.availability.current.state === 'lost') {
          await this.clock.sleep(this.confirmAfterMs, controller.signal);
          if ((await this.attempt()) === undefined) this.availability.restored();
        }
      } catch (error) {
        if (!isAbortError(error)) throw error;
      } finally {
        if (this.recovering === controller) this.recovering = undefined;
      }
    })();
  }

  private startHeartbeat(): void {
    const controller = new AbortController();
    this.heartbeat = controller;
    void (async () => {
      try {
        for (;;) {
          await this.clock.sleep(this.intervalMs, controller.signal);
          if (this.reached && this.availability.current.state === 'available') await this.check();
        }
      } catch (error) {
        if (!isAbortError(error)) throw error;
      }
    })();
  }

  /** One probe: undefined when it answered, else why not. */
  private async attempt(): Promise<string | undefined> {
    try {
      await this.probe(this.timeoutMs);
      return undefined;
    } catch (error) {
      return errorMessage(error);
    }
  }
}
