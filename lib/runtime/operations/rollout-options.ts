import { RunEvent } from '../events';
import { Clock } from '../timing/clock';

/** Settings of `rollout()`. Every field is optional. */
export interface RolloutOptions {
  /**
   * Most components applying or verifying at the same time.
   * @default 8
   */
  readonly concurrency?: number;
  /**
   * The server-side apply field manager. Keep it stable: renaming it orphans field ownership.
   * @default 'stackwright'
   */
  readonly fieldManager?: string;
  /**
   * Take ownership of fields other managers own instead of failing the component with the conflict.
   * @default false
   */
  readonly forceConflicts?: boolean;
  /**
   * How long one component may take from start to verified before it fails, naming the object it
   * waited for and that object's last status message.
   * @default 600000 (10 minutes)
   */
  readonly componentTimeoutMs?: number;
  /**
   * How long the whole run may take; on expiry running components fail and pending ones are
   * reported `not-started`.
   * @default no limit (each component still has its own timeout)
   */
  readonly runTimeoutMs?: number;
  /**
   * Ends the run when nothing changed (no object status, no component state) for this long —
   * the stall detector for a rollout that would otherwise sit out every component timeout.
   * @default no limit
   */
  readonly noProgressTimeoutMs?: number;
  /**
   * When a running component has not verified after this long, the engine lists the pods behind its
   * workloads and the Events about them, and emits a `component-diagnosis` event saying why; it
   * does so again every `diagnoseAfterMs` (a new event only when what it finds changed). A blocking
   * stuck state (a ResourceQuota, a missing StorageClass, an admission denial, a crash loop, …) seen
   * in two rounds in a row with no change of the component's objects in between fails the
   * component with its cause at once, instead of at `componentTimeoutMs`.
   * @default 15000
   */
  readonly diagnoseAfterMs?: number;
  /** Called synchronously with every event, in order. Must not throw. */
  readonly onEvent?: (event: RunEvent) => void;
  /** Aborting stops the run cleanly: nothing new starts, and the result says what did not start. */
  readonly signal?: AbortSignal;
  /** Components to leave out (they count as satisfied for their dependants). */
  readonly skip?: readonly string[];
  /**
   * How often a retryable apply error (one with `retryable: true`, e.g. 429, 5xx, NoMatch right
   * after a CRD) is tried again, with jittered exponential back-off, before the component fails.
   * @default 5
   */
  readonly applyAttempts?: number;
  /**
   * Wait for LoadBalancer Services to get an ingress address (slow; no LB controller in kwok).
   * @default false
   */
  readonly waitForLoadBalancer?: boolean;
  /** The clock for timestamps and timeouts. @default systemClock */
  readonly clock?: Clock;
}

/** Settings of `verify()`. */
export interface VerifyOptions {
  /**
   * How long to wait for components that are not Current yet before reporting them; 0 reports the
   * state as it is now.
   * @default 0
   */
  readonly waitMs?: number;
  /**
   * Most objects read (GET) at the same time.
   * @default 8
   */
  readonly concurrency?: number;
  readonly onEvent?: (event: RunEvent) => void;
  readonly signal?: AbortSignal;
  readonly waitForLoadBalancer?: boolean;
  /**
   * ref -> manifest hash of the last deploy (the inventory, `inventoryHashes`): a Job that its
   * `ttlSecondsAfterFinished` removed since then counts as completed.
   * @default - none: a Job that is gone is NotFound
   */
  readonly recordedHashes?: ReadonlyMap<string, string>;
  /** Run diagnostics for components that are not verified. @default true */
  readonly diagnose?: boolean;
  readonly clock?: Clock;
}
