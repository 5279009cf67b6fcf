import { BOOTSTRAP_UNIT, ComponentGraph, componentLevels } from '../../graph';
import { unitResults } from '../../runtime';
import type { RolloutResult, RunEvent, RunMode } from '../../runtime';
import { wordsOf } from './line-view';

/** Where a row stands, in the terms the views colour by. */
export type RowState = 'pending' | 'running' | 'done' | 'failed' | 'blocked' | 'not-started' | 'skipped';

/** One line of the progress view: a component (or deletion unit). */
export interface Row {
  readonly name: string;
  /** The service it belongs to; rows are grouped by it. */
  readonly group: string;
  state: RowState;
  /** The word shown: applying, verifying, verified, deleting, deleted, failed, blocked, … */
  phase: string;
  /** The latest object status for running rows; the reason for failed or blocked ones. */
  detail?: string;
  diagnosis?: readonly string[];
  startedAt?: number;
  endedAt?: number;
}

/**
 * What the progress views draw, folded from the event stream: one row per component in
 * dependency order (grouped by service), each with its state, current detail and timings.
 */
export class ProgressModel {
  readonly rows = new Map<string, Row>();
  startedAt?: number;
  finishedAt?: number;
  /** Set while the API server is lost: why, and until when the run waits for it. */
  apiLost?: { readonly reason: string; readonly until: number };
  private mode: RunMode = 'deploy';

  /** Rows in display order: by first topological level, grouped by service. */
  static forGraph(graph: ComponentGraph): ProgressModel {
    const levels = componentLevels(graph);
    const service = new Map(graph.components.map((c) => [c.name, c.service]));
    const ordered = levels.flat();
    const groups = [...new Set(ordered.map((n) => service.get(n) ?? n))];
    const model = new ProgressModel();
    if (graph.bootstrap.length > 0) model.add(BOOTSTRAP_UNIT, '');
    for (const group of groups)
      for (const name of ordered) if ((service.get(name) ?? name) === group) model.add(name, group);
    return model;
  }

  /** Rows for deletion units, in the given order, one group. */
  static forUnits(units: readonly string[]): ProgressModel {
    const model = new ProgressModel();
    for (const name of units) model.add(name, '');
    return model;
  }

  add(name: string, group: string): void {
    if (!this.rows.has(name)) this.rows.set(name, { name, group, state: 'pending', phase: 'pending' });
  }

  /** Folds one run event (deploy, verify, destroy or prune) into the rows. */
  onEvent(event: RunEvent): void {
    const at = Date.parse(event.at);
    switch (event.type) {
      case 'run-started': {
        // A deploy's prune starts a second run on the same rows.
        this.startedAt ??= at;
        this.mode = event.mode;
        const bootstrap = this.rows.get(BOOTSTRAP_UNIT);
        if (bootstrap && event.bootstrapObjects > 0) this.set(bootstrap, 'running', this.doing(), at);
        for (const name of event.units) this.add(name, '');
        return;
      }
      case 'unit-started':
        if (this.mode === 'deploy' || this.mode === 'verify') this.finishBootstrap(at);
        this.set(this.row(event.unit), 'running', this.doing(), at);
        return;
      case 'object-applied':
      case 'object-status': {
        const row = this.rows.get(event.unit ?? BOOTSTRAP_UNIT);
        if (!row || row.state !== 'running') return;
        row.detail =
          event.type === 'object-applied'
            ? `${event.ref} ${event.action}`
            : `${event.ref} ${event.status}: ${event.message}`;
        return;
      }
      case 'object-deleted':
      case 'object-gone':
        this.row(event.unit).detail = `${event.ref} ${event.type === 'object-gone' ? 'gone' : 'deleting'}`;
        return;
      case 'unit-applied':
        this.row(event.unit).phase = 'verifying';
        return;
      case 'unit-done': {
        const row = this.row(event.unit);
        this.set(row, 'done', wordsOf(this.mode).done, undefined, at);
        row.detail = undefined;
        return;
      }
      case 'unit-failed': {
        const row = this.row(event.unit);
        this.set(row, 'failed', 'failed', undefined, at);
        row.detail = event.reason;
        if (event.diagnosis) row.diagnosis = event.diagnosis;
        return;
      }
      case 'unit-blocked': {
        const row = this.row(event.unit);
        const kept = wordsOf(this.mode).blocked === 'kept';
        this.set(row, 'blocked', kept ? 'kept' : 'blocked', undefined, at);
        row.detail = kept ? event.reason : `by ${event.blockedBy}`;
        return;
      }
      case 'unit-diagnosis':
        this.row(event.unit).diagnosis = event.diagnosis;
        return;
      case 'api-lost':
        this.apiLost = { reason: event.reason, until: Date.parse(event.waitingUntil) };
        return;
      case 'api-restored':
        this.apiLost = undefined;
        return;
      case 'run-finished': {
        this.finishedAt = at;
        const result = event.result;
        if ('bootstrap' in result) this.finishBootstrapWith(result.bootstrap, at);
        for (const u of unitResults(result)) {
          const row = this.row(u.name);
          if (u.state === 'not-started' || u.state === 'skipped') {
            this.set(row, u.state, u.state === 'skipped' ? 'skipped' : 'not started');
            row.detail = u.reason;
          }
        }
        return;
      }
    }
  }

  /** How many rows are in each state. */
  counts(): Record<RowState, number> {
    const counts: Record<RowState, number> = {
      pending: 0,
      running: 0,
      done: 0,
      failed: 0,
      blocked: 0,
      'not-started': 0,
      skipped: 0,
    };
    for (const row of this.rows.values()) counts[row.state] += 1;
    return counts;
  }

  /** What a running row is doing in this run. */
  private doing(): string {
    return this.mode === 'deploy' ? 'applying' : this.mode === 'verify' ? 'reading' : 'deleting';
  }

  private finishBootstrapWith(bootstrap: RolloutResult['bootstrap'], at: number): void {
    const row = this.rows.get(BOOTSTRAP_UNIT);
    if (!row) return;
    if (bootstrap.state === 'verified') this.set(row, 'done', 'verified', undefined, row.endedAt ?? at);
    else if (bootstrap.state === 'failed') {
      this.set(row, 'failed', 'failed', undefined, at);
      row.detail = bootstrap.reason;
    }
  }

  private finishBootstrap(at: number): void {
    const bootstrap = this.rows.get(BOOTSTRAP_UNIT);
    if (bootstrap?.state === 'running') {
      this.set(bootstrap, 'done', 'verified', undefined, at);
      bootstrap.detail = undefined;
    }
  }

  private row(name: string): Row {
    let row = this.rows.get(name);
    if (!row) {
      this.add(name, '');
      row = this.rows.get(name) as Row;
    }
    return row;
  }

  private set(row: Row, state: RowState, phase: string, startedAt?: number, endedAt?: number): void {
    row.state = state;
    row.phase = phase;
    if (startedAt !== undefined) row.startedAt = startedAt;
    if (endedAt !== undefined) row.endedAt = endedAt;
  }
}
