import { assertGraphIsClosedAndAcyclic, ComponentGraph, Edge, isGating, topologicalOrder } from '../../graph';
import { ComponentState, isRunningState, isTerminalState } from '../result';
import { DEFAULT_CONCURRENCY } from '../defaults';

/** What the scheduler knows about one component. */
export interface ScheduledComponent {
  readonly name: string;
  readonly state: ComponentState;
  /** Why it failed, was blocked, skipped or not started. */
  readonly reason?: string;
  /** For `blocked`: the failed component at the root. */
  readonly blockedBy?: string;
}

/** A component that `markFailed` blocked, with its reason. */
export interface BlockedComponent {
  readonly name: string;
  readonly blockedBy: string;
  readonly reason: string;
}

/** Settings of a `RolloutScheduler`. */
export interface SchedulerOptions {
  /**
   * Most components applying or verifying at once.
   * @default 8
   */
  readonly concurrency?: number;
  /** Components to leave out of the run; they count as satisfied for their dependants. */
  readonly skip?: Iterable<string>;
}

/**
 * The deciding half of a rollout: a state machine over the component graph, with no I/O.
 *
 * A component becomes runnable the moment each of its own gating edges (`ready`, `completed`,
 * `same-node`) points at a verified (or skipped) component — never when a whole topological level
 * is done — and only while fewer than `concurrency` components run. `runtime` edges never gate.
 * A failure blocks every transitive dependant at once (naming the failed component and its
 * failure) and leaves independent branches running.
 *
 * Critical path first: when more components are runnable than there are free slots (or than the
 * cluster absorbs at once: the runner starts them in this order, so their objects reach the API
 * server and its controllers in this order), those with the longest remaining path to the end of
 * the graph come first; ties go by name. A path is weighed by the components on it that will run
 * (gating edges, skipped components weigh nothing): the scheduler knows no durations, and a guess
 * per kind (a Job takes two seconds or twenty minutes) would be invented; counting components is
 * exact when they take equally long, and never puts a dependency-free leaf before a long chain.
 *
 * @example
 * const s = new RolloutScheduler(graph, { concurrency: 4 });
 * for (const name of s.nextRunnable()) { s.markApplying(name); … }
 * s.markVerified('mariadb');   // may make dependants runnable
 * s.markFailed('keystone-db-sync', 'Job failed: BackoffLimitExceeded'); // returns what it blocked
 */
export class RolloutScheduler {
  readonly concurrency: number;
  private readonly entries = new Map<
    string,
    { state: ComponentState; reason?: string; blockedBy?: string }
  >();
  /** name -> the gating edges it needs. */
  private readonly needs = new Map<string, Edge[]>();
  /** name -> the components whose gating edges point at it. */
  private readonly neededBy = new Map<string, string[]>();
  /** Every component by name (snapshots, reports). */
  private readonly order: string[];
  /** Every component in start order: longest remaining path first, then by name. */
  private readonly startOrder: string[];

  constructor(graph: ComponentGraph, options: SchedulerOptions = {}) {
    assertGraphIsClosedAndAcyclic(graph);
    this.concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    if (!Number.isInteger(this.concurrency) || this.concurrency < 1) {
      throw new Error(`concurrency must be a whole number >= 1, got ${this.concurrency}`);
    }
    this.order = graph.components.map((c) => c.name).sort();
    const skip = new Set(options.skip ?? []);
    for (const name of skip) {
      if (!this.order.includes(name)) throw new Error(`cannot skip ${name}: no such component`);
    }
    for (const name of this.order) {
      this.entries.set(
        name,
        skip.has(name) ? { state: 'skipped', reason: 'skipped on request' } : { state: 'pending' },
      );
      this.needs.set(name, []);
      this.neededBy.set(name, []);
    }
    for (const edge of graph.edges) {
      if (!isGating(edge.kind)) continue;
      this.needs.get(edge.from)?.push(edge);
      this.neededBy.get(edge.to)?.push(edge.from);
    }
    const remaining = new Map<string, number>();
    for (const name of topologicalOrder(this.order, graph.edges).reverse()) {
      const after = (this.neededBy.get(name) ?? []).reduce((m, d) => Math.max(m, remaining.get(d) ?? 0), 0);
      remaining.set(name, (skip.has(name) ? 0 : 1) + after);
    }
    // A stable sort of the name order: ties keep it.
    this.startOrder = [...this.order].sort((a, b) => (remaining.get(b) ?? 0) - (remaining.get(a) ?? 0));
  }

  /** The state of `name`. Throws for an unknown component. */
  state(name: string): ComponentState {
    return this.entry(name).state;
  }

  /** Every component with its state, sorted by name. */
  snapshot(): ScheduledComponent[] {
    return this.order.map((name) => ({ name, ...this.entry(name) }));
  }

  /** Components currently applying or verifying. */
  running(): string[] {
    return this.order.filter((n) => isRunningState(this.entry(n).state));
  }

  /** True when no component is pending or running. */
  isFinished(): boolean {
    return this.order.every((n) => isTerminalState(this.entry(n).state));
  }

  /**
   * Pending components whose gating edges are all satisfied, longest remaining path first (then by
   * name), at most as many as there are free concurrency slots. Does not change any state: call
   * `markApplying` for each one you start, in this order.
   */
  nextRunnable(): string[] {
    const free = this.concurrency - this.running().length;
    if (free <= 0) return [];
    return this.startOrder
      .filter((n) => this.entry(n).state === 'pending' && this.isSatisfied(n))
      .slice(0, free);
  }

  /** The gating edges of `name` that are not satisfied yet (for "waiting for …" messages). */
  waitingFor(name: string): Edge[] {
    return (this.needs.get(name) ?? []).filter((e) => !this.edgeSatisfied(e));
  }

  /** `pending` -> `applying`. Throws when the component is not runnable (a caller bug). */
  markApplying(name: string): void {
    const entry = this.entry(name);
    if (entry.state !== 'pending') throw new Error(`cannot start ${name}: it is ${entry.state}`);
    const unmet = this.waitingFor(name);
    if (unmet.length > 0)
      throw new Error(`cannot start ${name}: waiting for ${unmet.map((e) => e.to).join(', ')}`);
    if (this.running().length >= this.concurrency)
      throw new Error(`cannot start ${name}: ${this.concurrency} components already running`);
    this.entries.set(name, { state: 'applying' });
  }

  /** `applying` -> `verifying`. */
  markVerifying(name: string): void {
    const entry = this.entry(name);
    if (entry.state !== 'applying') throw new Error(`cannot verify ${name}: it is ${entry.state}`);
    this.entries.set(name, { state: 'verifying' });
  }

  /** `applying`/`verifying` -> `verified`; its dependants may now be runnable. */
  markVerified(name: string): void {
    const entry = this.entry(name);
    if (!isRunningState(entry.state)) throw new Error(`cannot mark ${name} verified: it is ${entry.state}`);
    this.entries.set(name, { state: 'verified' });
  }

  /**
   * Marks a running (or pending) component failed and blocks all its transitive dependants that
   * have not started, each with a reason naming `name` and `reason`. Returns the blocked ones.
   */
  markFailed(name: string, reason: string): BlockedComponent[] {
    const entry = this.entry(name);
    if (isTerminalState(entry.state))
      throw new Error(`cannot mark ${name} failed: it is already ${entry.state}`);
    this.entries.set(name, { state: 'failed', reason });
    const blocked: BlockedComponent[] = [];
    const queue = [name];
    const seen = new Set<string>([name]);
    while (queue.length > 0) {
      const current = queue.shift() as string;
      for (const dependant of [...(this.neededBy.get(current) ?? [])].sort()) {
        if (seen.has(dependant)) continue;
        seen.add(dependant);
        queue.push(dependant);
        const state = this.entry(dependant).state;
        // Only components that have not started can be blocked; a running one cannot depend on a
        // failed one, since it started after its dependencies verified.
        if (state !== 'pending') continue;
        const via = current === name ? '' : ` (through ${current})`;
        const blockReason = `blocked by ${name}${via}, which failed: ${reason}`;
        this.entries.set(dependant, { state: 'blocked', reason: blockReason, blockedBy: name });
        blocked.push({ name: dependant, blockedBy: name, reason: blockReason });
      }
    }
    return blocked;
  }

  /**
   * Ends the run early: every pending component becomes `not-started` with `reason`. Returns them.
   * Running components are left to the caller (it decides whether they finish or fail).
   */
  markRemainingNotStarted(reason: string): string[] {
    const names = this.order.filter((n) => this.entry(n).state === 'pending');
    for (const n of names) this.entries.set(n, { state: 'not-started', reason });
    return names;
  }

  private isSatisfied(name: string): boolean {
    return (this.needs.get(name) ?? []).every((e) => this.edgeSatisfied(e));
  }

  private edgeSatisfied(edge: Edge): boolean {
    // ready, completed and same-node all wait for a verified target: for a Job, verified means
    // completed (the readiness rule waits for Complete), and a same-node dependency's pods are
    // running on every node it targets once its DaemonSet is verified.
    const state = this.entry(edge.to).state;
    return state === 'verified' || state === 'skipped';
  }

  private entry(name: string): { state: ComponentState; reason?: string; blockedBy?: string } {
    const entry = this.entries.get(name);
    if (!entry) throw new Error(`unknown component ${name}`);
    return entry;
  }
}
