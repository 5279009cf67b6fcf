/** One request of support/api-load.py (one JSON line of its output). */
export interface RequestLine {
  /** Epoch seconds when the request started. */
  readonly t: number;
  readonly op: string;
  /** HTTP status, 0 for a connection error or a timeout. */
  readonly status: number;
  readonly ok: boolean;
  readonly ms: number;
  readonly error?: string;
}

/** When one unit of a deploy ran, from its `--json` events (epoch seconds). */
export interface UnitWindow {
  readonly unit: string;
  /** For a workload an upgrade rolls: `roll` (other units' phase is in their name). */
  readonly phase?: string;
  readonly startedAt: number;
  /** When its writes were done (`unit-applied`); the start when it wrote nothing. */
  readonly appliedAt: number;
  readonly doneAt: number;
}

/** The phases a `stackwright deploy --json` output's `upgrade` line lists, as the CLI printed them. */
export function upgradePhases(output: string): string[] {
  return jsonEvents(output).flatMap((event) => (event.type === 'upgrade' ? (event.phases ?? []) : []));
}

interface DeployEvent {
  readonly type: string;
  readonly unit?: string;
  readonly at?: string;
  readonly phases?: string[];
}

/** The JSON lines of a `--json` output (the CLI's other lines skipped). */
function jsonEvents(output: string): DeployEvent[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as DeployEvent);
}

/**
 * The window of every unit that started and ended in a `stackwright deploy --json` output. The
 * workloads a roll phase replaces are named in the `upgrade` line's phases (`  keystone-roll: roll
 * keystone-api (after …)`): their windows are the roll's, so they get the roll unit's `phase`.
 */
export function unitWindows(output: string): UnitWindow[] {
  const rolled = new Set<string>();
  const times = new Map<string, { started?: number; applied?: number; done?: number }>();
  for (const phase of upgradePhases(output)) {
    const roll = /^ {2}[\w-]+: roll ([\w, -]+?)(?: \(after .*\))?$/.exec(phase);
    for (const workload of roll?.[1].split(', ') ?? []) rolled.add(workload);
  }
  for (const event of jsonEvents(output)) {
    if (!event.unit || !event.at) continue;
    const at = Date.parse(event.at) / 1000;
    const entry = times.get(event.unit) ?? {};
    if (event.type === 'unit-started') entry.started = at;
    if (event.type === 'unit-applied') entry.applied = at;
    if (event.type === 'unit-done') entry.done = at;
    times.set(event.unit, entry);
  }
  return [...times].flatMap(([unit, t]) =>
    t.started !== undefined && t.done !== undefined
      ? [
          {
            unit,
            ...(rolled.has(unit) ? { phase: 'roll' } : {}),
            startedAt: t.started,
            appliedAt: t.applied ?? t.started,
            doneAt: t.done,
          },
        ]
      : [],
  );
}

/** Requests, failures and latency percentiles of a set of requests. */
export interface LoadCounts {
  readonly requests: number;
  readonly failed: number;
  readonly p50ms: number;
  readonly p99ms: number;
  /** Requests per second over the span of the set. */
  readonly perSecond: number;
}

export interface LoadReport {
  readonly total: LoadCounts;
  /**
   * Per upgrade phase (the unit name's suffix: pre-check, backup, expand, roll, contract,
   * post-check…), the requests that started while a unit of that phase ran.
   */
  readonly phases: Readonly<Record<string, LoadCounts>>;
  /** The failed requests, in order. */
  readonly failures: readonly RequestLine[];
  /**
   * Per workload the upgrade rolled, the requests served (ok) between its new template being
   * applied and its rollout verified: its old and new pods both ran then.
   */
  readonly servedWhileRolling: Readonly<Record<string, number>>;
}

const PHASES = ['pre-check', 'backup', 'expand', 'roll', 'contract', 'online-data-migrations', 'post-check'];

function phaseOf(window: UnitWindow): string | undefined {
  if (window.phase) return window.phase;
  if (window.unit === 'upgrade-backup') return 'backup';
  return PHASES.find((p) => window.unit.endsWith(`-${p}`) || new RegExp(`-${p}-\\d+$`).test(window.unit));
}

function counts(requests: readonly RequestLine[]): LoadCounts {
  const ms = requests.map((r) => r.ms).sort((a, b) => a - b);
  const at = (q: number) => (ms.length === 0 ? 0 : ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]);
  const span = requests.length > 1 ? requests[requests.length - 1].t - requests[0].t : 0;
  return {
    requests: requests.length,
    failed: requests.filter((r) => !r.ok).length,
    p50ms: at(0.5),
    p99ms: at(0.99),
    perSecond: span > 0 ? Math.round((requests.length / span) * 10) / 10 : 0,
  };
}

/** Sums a load run up, per phase of the deploy whose unit windows are given. */
export function summariseLoad(requests: readonly RequestLine[], windows: readonly UnitWindow[]): LoadReport {
  const sorted = [...requests].sort((a, b) => a.t - b.t);
  const phases: Record<string, LoadCounts> = {};
  for (const phase of PHASES) {
    const spans = windows.filter((w) => phaseOf(w) === phase);
    if (spans.length === 0) continue;
    phases[phase] = counts(sorted.filter((r) => spans.some((w) => r.t >= w.startedAt && r.t <= w.doneAt)));
  }
  const rolled = windows.filter((w) => w.phase === 'roll');
  return {
    total: counts(sorted),
    phases,
    failures: sorted.filter((r) => !r.ok),
    servedWhileRolling: Object.fromEntries(
      rolled.map((w) => [w.unit, sorted.filter((r) => r.ok && r.t >= w.appliedAt && r.t <= w.doneAt).length]),
    ),
  };
}
