import { formatDuration } from '../duration';
import { OutputStream } from '../io';
import { eraseLines, SPINNER, Style, truncate } from './ansi';
import { ProgressModel, Row, RowState } from './progress-model';

export interface FrameOptions {
  readonly title: string;
  readonly now: number;
  /** Terminal width; lines are cut to it so nothing wraps (wrapping breaks the redraw). */
  readonly width: number;
  /** Terminal height; the frame never exceeds it (finished groups fold first). */
  readonly height: number;
  readonly spinner: number;
  readonly style: Style;
}

const ICON: Record<RowState, string> = {
  pending: '·',
  running: '',
  done: '✓',
  failed: '✗',
  blocked: '⊘',
  'not-started': '-',
  skipped: '↷',
};

/**
 * One frame of the live view: the rows grouped by service, each with icon, name, phase, duration
 * and detail; a failed row shows its reason and diagnosis underneath; a status line at the end.
 * When the terminal is too short, groups whose rows are all done fold into one line, then the
 * remaining finished rows are counted instead of listed.
 */
export function renderFrame(model: ProgressModel, options: FrameOptions): string[] {
  const { style } = options;
  const rows = [...model.rows.values()];
  const nameWidth = Math.min(36, Math.max(12, ...rows.map((r) => r.name.length)));
  const body = (fold: boolean): string[] => {
    const lines: string[] = [];
    let group: string | undefined;
    const groups = groupRows(rows);
    for (const [name, members] of groups) {
      const allDone = members.every((r) => r.state === 'done');
      if (fold && allDone && name !== '') {
        lines.push(`${style.green('✓')} ${name} ${style.dim(`(${members.length} verified)`)}`);
        continue;
      }
      if (name !== group && name !== '') lines.push(style.bold(name));
      group = name;
      for (const row of members) lines.push(...rowLines(row, '  ', nameWidth, options));
    }
    return lines;
  };
  const status = statusLine(model, options);
  const room = Math.max(3, options.height - 2);
  let lines = body(false);
  if (lines.length > room) lines = body(true);
  if (lines.length > room) {
    // Still too long: keep what needs attention (running, failed, blocked), count the rest.
    const attention = rows.filter((r) => r.state !== 'done' && r.state !== 'pending');
    const shown = attention.flatMap((r) => rowLines(r, '  ', nameWidth, options));
    const hidden = rows.length - attention.length;
    lines = [...shown.slice(0, room - 1), style.dim(`… ${hidden} more (pending or verified) not shown`)];
  }
  return [style.bold(options.title), ...lines, status].map((line) => truncate(line, options.width));
}

function rowLines(row: Row, indent: string, nameWidth: number, options: FrameOptions): string[] {
  const { style } = options;
  const icon =
    row.state === 'running'
      ? style.cyan(SPINNER[options.spinner % SPINNER.length])
      : paint(row.state, ICON[row.state], style);
  const elapsed =
    row.startedAt !== undefined ? formatDuration((row.endedAt ?? options.now) - row.startedAt) : '';
  const phase = paint(row.state, row.phase.padEnd(11), style);
  const detail = row.detail ? `  ${row.state === 'running' ? style.dim(row.detail) : row.detail}` : '';
  const lines = [`${indent}${icon} ${row.name.padEnd(nameWidth)} ${phase} ${elapsed.padStart(7)}${detail}`];
  if (row.state === 'failed')
    for (const d of row.diagnosis ?? []) lines.push(`${indent}    ${style.yellow('↳')} ${d}`);
  return lines;
}

function statusLine(model: ProgressModel, options: FrameOptions): string {
  const c = model.counts();
  const { style } = options;
  const parts = [
    style.green(`${c.done} done`),
    c.failed > 0 ? style.red(`${c.failed} failed`) : `${c.failed} failed`,
    c.blocked > 0 ? style.yellow(`${c.blocked} blocked`) : `${c.blocked} blocked`,
    `${c.running} running`,
    `${c.pending} pending`,
  ];
  if (c['not-started'] > 0) parts.push(`${c['not-started']} not started`);
  if (model.apiLost)
    parts.unshift(
      style.red(
        `API server lost (${model.apiLost.reason}); waiting ${formatDuration(Math.max(0, model.apiLost.until - options.now))} more, timers paused`,
      ),
    );
  const elapsed =
    model.startedAt !== undefined ? formatDuration((model.finishedAt ?? options.now) - model.startedAt) : '';
  return `${parts.join(' · ')}${elapsed ? ` · ${elapsed}` : ''}`;
}

function paint(state: RowState, text: string, style: Style): string {
  switch (state) {
    case 'done':
      return style.green(text);
    case 'failed':
      return style.red(text);
    case 'blocked':
    case 'not-started':
      return style.yellow(text);
    case 'pending':
    case 'skipped':
      return style.dim(text);
    default:
      return text;
  }
}

function groupRows(rows: readonly Row[]): [string, Row[]][] {
  const groups = new Map<string, Row[]>();
  for (const row of rows) groups.set(row.group, [...(groups.get(row.group) ?? []), row]);
  return [...groups.entries()];
}

/**
 * The live view on a terminal: redraws the frame in place (at most ten times a second, and on
 * every change), and leaves the final frame on screen when stopped.
 */
export class TtyView {
  private drawn = 0;
  private spinner = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly model: ProgressModel,
    private readonly out: OutputStream,
    private readonly title: string,
    private readonly style: Style,
    private readonly now: () => number = Date.now,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.spinner += 1;
      this.draw();
    }, 100);
    this.timer.unref();
    this.draw();
  }

  /** Redraws now with the final state and stops animating. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.draw();
  }

  private draw(): void {
    const lines = renderFrame(this.model, {
      title: this.title,
      now: this.now(),
      // A pseudo-terminal without a size reports 0 columns.
      width: (this.out.columns && this.out.columns > 20 ? this.out.columns : 100) - 1,
      height: this.out.rows && this.out.rows > 5 ? this.out.rows : 40,
      spinner: this.spinner,
      style: this.style,
    });
    this.out.write(eraseLines(this.drawn) + lines.join('\n') + '\n');
    this.drawn = lines.length;
  }
}
