import { ClusterUnreachableError } from '../cluster-unreachable-error';
import { ApiAvailabilitySource, ApiState } from '../ports';
import { Clock, systemClock } from '../timing/clock';
import { startTimer } from '../timing/timer';
import { DEFAULT_API_LOSS_TIMEOUT_MS } from '../defaults';
import { formatMs } from '../timing/format-ms';

/** Settings of an `ApiAvailability`. */
export interface ApiAvailabilityOptions {
  /**
   * How long to wait for a lost API server before giving up (`gone`).
   * @default 120000 (2 minutes)
   */
  readonly lossTimeoutMs?: number;
  /** @default systemClock */
  readonly clock?: Clock;
  /** Where the API server is, for messages: `https://10.0.0.1:6443`. */
  readonly server?: string;
}

/**
 * Whether the API server answers, as a small state machine: `available` → `lost` (someone saw it
 * stop answering: requests wait in `whenAvailable`) → `available` again when it answers, or `gone`
 * once it stayed away for `lossTimeoutMs` (waiting requests fail with `ClusterUnreachableError`,
 * and so do new ones until it answers again). The Kubernetes port drives it from its liveness
 * probe; the in-memory port from its test controls; the engine subscribes to pause its timers.
 */
export class ApiAvailability implements ApiAvailabilitySource {
  private state: ApiState = { state: 'available' };
  private readonly listeners = new Set<(state: ApiState) => void>();
  private waiters: { resolve: () => void; reject: (error: Error) => void }[] = [];
  private cancelTimeout?: () => void;
  private closed = false;
  private readonly clock: Clock;
  readonly lossTimeoutMs: number;

  constructor(private readonly options: ApiAvailabilityOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.lossTimeoutMs = options.lossTimeoutMs ?? DEFAULT_API_LOSS_TIMEOUT_MS;
  }

  get current(): ApiState {
    return this.state;
  }

  subscribe(listener: (state: ApiState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The API server stopped answering (`reason` says how); a no-op unless it was available, or once closed. */
  lost(reason: string): void {
    if (this.state.state !== 'available' || this.closed) return;
    const since = this.clock.now();
    this.set({ state: 'lost', since, deadline: since + this.lossTimeoutMs, reason });
    this.cancelTimeout = startTimer(this.clock, this.lossTimeoutMs, () => this.giveUp());
  }

  /** The API server answers again. */
  restored(): void {
    if (this.state.state === 'available') return;
    this.cancelTimeout?.();
    this.cancelTimeout = undefined;
    this.set({ state: 'available' });
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w.resolve();
  }

  /**
   * Resolves at once while available, else when the API server is back; rejects with
   * `ClusterUnreachableError` when it is (or becomes) `gone`, and with the signal's abort.
   */
  whenAvailable(signal?: AbortSignal): Promise<void> {
    const state = this.state;
    if (state.state === 'available') return Promise.resolve();
    if (state.state === 'gone') return Promise.reject(this.goneError(state));
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        reject: (error: Error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      const onAbort = () => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  /** The error of a request that finds the API server `gone`. */
  unreachableError(): ClusterUnreachableError {
    const state = this.state;
    return this.goneError(state.state === 'gone' ? state : { state: 'gone', since: 0, reason: 'no answer' });
  }

  /** Stops the loss timer (the port is closing); from now on nothing starts it again. */
  close(): void {
    this.closed = true;
    this.cancelTimeout?.();
    this.cancelTimeout = undefined;
  }

  private giveUp(): void {
    if (this.state.state !== 'lost') return;
    const gone: ApiState = { state: 'gone', since: this.state.since, reason: this.state.reason };
    this.set(gone);
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w.reject(this.goneError(gone));
  }

  private goneError(state: Extract<ApiState, { state: 'gone' }>): ClusterUnreachableError {
    const where = this.options.server ? ` at ${this.options.server}` : '';
    return new ClusterUnreachableError(
      `the API server${where} stopped answering (${state.reason}) and did not come back within ${formatMs(this.lossTimeoutMs)} (--api-loss-timeout)`,
    );
  }

  private set(state: ApiState): void {
    this.state = state;
    for (const listener of [...this.listeners]) {
      try {
        listener(state);
      } catch {
        // A listener's bug must not break the port.
      }
    }
  }
}
