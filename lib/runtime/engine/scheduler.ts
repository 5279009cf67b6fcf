import { DEFAULT_CONCURRENCY } from '../defaults';
import { UnitGraph, UnitNeed } from './unit-graph';

/**
 * Where a unit stands, whatever its action (apply and wait, read and judge, delete and wait gone):
 * `pending` until its needs are done and a slot is free, `running` while it holds the slot, then
 * `done` (its goal reached: verified, or gone), `failed`, `blocked` (something it needs failed),
 * `not-started` (the run ended first) or `skipped` (left out on request). Each operation names its
 * `done` in its own result (a rollout's `verified`, a deletion's `deleted`).
 */
export type UnitState = 'pending' | 'running' | 'done' | 'failed' | 'blocked' | 'not-started' | 'skipped';

/** The states a unit ends a run in. */
export type EndState = Exclude<UnitState, 'pending' | 'running'>;

/** True for the states a unit ends a run in. */
export function isEndState(state: UnitState): state is EndState {
  return state !== 'pending' && state !== 'running';
}

/** What the scheduler knows about one unit. */
export interface ScheduledUnit {
  readonly name: string;
  readonly state: UnitState;
  /** Why it failed, was blocked, skipped or not started. */
  readonly reason?: string;
  /** For `blocked`: the failed unit at the root. */
  readonly blockedBy?: string;
}

/** A unit that `markFailed` blocked, with its reason. */
export interface BlockedUnit {
  readonly name: string;
  readonly blockedBy: string;
  readonly reason: string;
}

/** Settings of a `UnitScheduler`. */
export interface SchedulerOptions {
  /**
   * Most units running at once.
   * @default 8
   */
  readonly concurrency?: number;
  /** Units to leave out of the run; they count as done for the units that need them. */
  readonly skip?: Iterable<string>;
}

/**
 * The deciding half of every run (deploy, verify, destroy, prune): a state machine over a
 * {@link UnitGraph}, with no I/O, that knows nothing of what a unit does.
 *
 * A unit becomes runnable the moment each unit it needs is done (or skipped) — never when a whole
 * topological level is — and only while fewer than `concurrency` units run. A failure blocks every
 * transitive dependant at once (naming the failed unit and its failure) and leaves independent
 * branches running.
 *
 * Critical path first: when more components are runnable than there are free slots (or than the
 * cluster absorbs at once: the runner starts them in this order, so their objects reach the API
 * server and its controllers in this order), those with the longest remaining path to the end of
 * the graph come first; ties go by name. A path is weighed by the units on it that will run
 * (skipped units weigh nothing): the scheduler knows no durations, and a guess
 * per kind (a Job takes two seconds or twenty minutes) would be invented; counting components is
 * exact when they take equally long, and never puts a dependency-free leaf before a long chain.
 *
 * @example
 * const s = new UnitScheduler(unitGraphOf(graph), { concurrency: 4 });
 * for (const name of s.nextRunnable()) { s.markStarted(name); … }
 * s.markDone('mariadb');   // may make dependants runnable
 * s.markFailed('keystone-db-sync', 'Job failed: BackoffLimitExceeded'); // returns what it blocked
 */
export class UnitScheduler {
  readonly concurrency: number;
  private readonly entries = new Map<string, { state: UnitState; reason?: string; blockedBy?: string }>();
  /** name -> the needs it has. */
  private readonly needs = new Map<string, UnitNeed[]>();
  /** name -> the units that need it. */
  private readonly neededBy = new Map<string, string[]>();
  /** Every unit by name (snapshots, reports). */
  private readonly order: string[];
  /** Every unit in start order: longest remaining path first, then by name. */
  private readonly startOrder: string[];

  /** Throws when a need names an unknown unit or the needs form a cycle. */
  constructor(graph: UnitGraph, options: SchedulerOptions = {}) {
    this.concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    if (!Number.isInteger(this.concurrency) || this.concurrency < 1) {
      throw new Error(`concurrency must be a whole number >= 1, got ${this.concurrency}`);
    }
    this.order = [...graph.units].sort();
    const skip = new Set(options.skip ?? []);
    for (const name of skip) {
      if (!this.order.includes(name)) throw new Error(`cannot skip ${name}: no such component`);
    }
    for (const name of this.order) {
      if (this.entries.has(name)) throw new Error(`two units are named ${name}`);
      this.entries.set(
        name,
        skip.has(name) ? { state: 'skipped', reason: 'skipped on request' } : { state: 'pending' },
      );
      this.needs.set(name, []);
      this.neededBy.set(name, []);
    }
    for (const need of graph.needs) {
      if (!this.entries.has(need.from) || !this.entries.has(need.to))
        throw new Error(`${need.from} needs ${need.to}, but only ${this.order.join(', ')} are scheduled`);
      this.needs.get(need.from)?.push(need);
      this.neededBy.get(need.to)?.push(need.from);
    }
    const remaining = this.remainingPaths(skip);
    // A stable sort of the name order: ties keep it.
    this.startOrder = [...this.order].sort((a, b) => (remaining.get(b) ?? 0) - (remaining.get(a) ?? 0));
  }

  /** The state of `name`. Throws for an unknown unit. */
  state(name: string): UnitState {
    return this.entry(name).state;
  }

  /** Every unit with its state, sorted by name. */
  snapshot(): ScheduledUnit[] {
    return this.order.map((name) => ({ name, ...this.entry(name) }));
  }

  /** Units currently running. */
  running(): string[] {
    return this.order.filter((n) => this.entry(n).state === 'running');
  }

  /** True when no unit is pending or running. */
  isFinished(): boolean {
    return this.order.every((n) => isEndState(this.entry(n).state));
  }

  /**
   * Pending units whose needs are all done, longest remaining path first (then by name), at most
   * as many as there are free concurrency slots. Does not change any state: call `markStarted` for
   * each one you start, in this order.
   */
  nextRunnable(): string[] {
    const free = this.concurrency - this.running().length;
    if (free <= 0) return [];
    return this.startOrder
      .filter((n) => this.entry(n).state === 'pending' && this.waitingFor(n).length === 0)
      .slice(0, free);
  }

  /** The units `name` needs that are not done yet (for "waiting for …" messages). */
  waitingFor(name: string): string[] {
    return (this.needs.get(name) ?? []).filter((need) => !this.isDone(need.to)).map((need) => need.to);
  }

  /** `pending` -> `running`. Throws when the unit is not runnable (a caller bug). */
  markStarted(name: string): void {
    const entry = this.entry(name);
    if (entry.state !== 'pending') throw new Error(`cannot start ${name}: it is ${entry.state}`);
    const unmet = this.waitingFor(name);
    if (unmet.length > 0) throw new Error(`cannot start ${name}: waiting for ${unmet.join(', ')}`);
    if (this.running().length >= this.concurrency)
      throw new Error(`cannot start ${name}: ${this.concurrency} units already running`);
    this.entries.set(name, { state: 'running' });
  }

  /** `running` -> `done`; the units that need it may now be runnable. */
  markDone(name: string): void {
    const entry = this.entry(name);
    if (entry.state !== 'running') throw new Error(`cannot mark ${name} done: it is ${entry.state}`);
    this.entries.set(name, { state: 'done' });
  }

  /**
   * Marks a running (or pending) unit failed and blocks all its transitive dependants that have
   * not started, each with a reason naming `name` and `reason`. Returns the blocked ones.
   */
  markFailed(name: string, reason: string): BlockedUnit[] {
    const entry = this.entry(name);
    if (isEndState(entry.state)) throw new Error(`cannot mark ${name} failed: it is already ${entry.state}`);
    this.entries.set(name, { state: 'failed', reason });
    const blocked: BlockedUnit[] = [];
    const queue = [name];
    const seen = new Set<string>([name]);
    while (queue.length > 0) {
      const current = queue.shift() as string;
      for (const dependant of [...(this.neededBy.get(current) ?? [])].sort()) {
        if (seen.has(dependant)) continue;
        seen.add(dependant);
        queue.push(dependant);
        // Only units that have not started can be blocked; a running one cannot need a failed
        // one, since it started after what it needs was done.
        if (this.entry(dependant).state !== 'pending') continue;
        const via = current === name ? '' : ` (through ${current})`;
        const blockReason = `blocked by ${name}${via}, which failed: ${reason}`;
        this.entries.set(dependant, { state: 'blocked', reason: blockReason, blockedBy: name });
        blocked.push({ name: dependant, blockedBy: name, reason: blockReason });
      }
    }
    return blocked;
  }

  /**
   * Ends the run early: every pending unit becomes `not-started` with `reason`. Returns them.
   * Running units are left to the caller (it decides whether they finish or fail).
   */
  markRemainingNotStarted(reason: string): string[] {
    const names = this.order.filter((n) => this.entry(n).state === 'pending');
    for (const n of names) this.entries.set(n, { state: 'not-started', reason });
    return names;
  }

  private isDone(name: string): boolean {
    const state = this.entry(name).state;
    return state === 'done' || state === 'skipped';
  }

  /**
   * name -> how many units that will run lie on the longest path from it to the end of the graph,
   * itself included. Throws on a cycle, naming it.
   */
  private remainingPaths(skip: ReadonlySet<string>): Map<string, number> {
    const remaining = new Map<string, number>();
    const visiting: string[] = [];
    const visit = (name: string): number => {
      const known = remaining.get(name);
      if (known !== undefined) return known;
      const at = visiting.indexOf(name);
      if (at >= 0)
        throw new Error(`dependency cycle between units: ${[...visiting.slice(at), name].join(' -> ')}`);
      visiting.push(name);
      const after = (this.neededBy.get(name) ?? []).reduce((m, d) => Math.max(m, visit(d)), 0);
      visiting.pop();
      const length = (skip.has(name) ? 0 : 1) + after;
      remaining.set(name, length);
      return length;
    };
    for (const name of this.order) visit(name);
    return remaining;
  }

  private entry(name: string): { state: UnitState; reason?: string; blockedBy?: string } {
    const entry = this.entries.get(name);
    if (!entry) throw new Error(`unknown unit ${name}`);
    return entry;
  }
}
