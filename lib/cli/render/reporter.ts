import { CliIo } from '../io';
import { style as makeStyle, Style } from './ansi';
import { formatRunEvent } from './line-view';
import { ProgressModel } from './progress-model';
import { TtyView } from './tty-view';
import type { RunEvent, RunMode } from '../../runtime';

/** How progress is shown: a live view, one line per event, or JSON lines. */
export type OutputMode = 'tty' | 'lines' | 'json';

/** Picks the mode: `--json` wins; a terminal outside CI gets the live view; everything else lines. */
export function outputMode(io: Pick<CliIo, 'stdout' | 'env'>, json: boolean): OutputMode {
  if (json) return 'json';
  const ci = io.env.CI !== undefined && io.env.CI !== '' && io.env.CI !== 'false' && io.env.CI !== '0';
  return io.stdout.isTTY === true && !ci ? 'tty' : 'lines';
}

/** Colour only on a terminal, and never when `--no-color` or `NO_COLOR` says so. */
export function useColor(io: Pick<CliIo, 'stdout' | 'env'>, colorFlag: boolean): boolean {
  return colorFlag && io.stdout.isTTY === true && (io.env.NO_COLOR ?? '') === '';
}

/**
 * Routes run events to the chosen output: feeds the live view's model, prints event lines, or
 * prints each event as one JSON line.
 */
export class Reporter {
  readonly style: Style;
  private view: TtyView | undefined;
  private startedAt: number | undefined;
  private runMode: RunMode = 'deploy';

  constructor(
    private readonly io: CliIo,
    readonly mode: OutputMode,
    color: boolean,
    private readonly model: ProgressModel,
    private readonly title: string,
  ) {
    this.style = makeStyle(color);
  }

  /** Starts the live view (tty) or prints the title (lines). */
  begin(): void {
    if (this.mode === 'tty') {
      this.view = new TtyView(this.model, this.io.stdout, this.title, this.style, () => this.io.now());
      this.view.start();
    } else if (this.mode === 'lines') {
      this.io.stdout.write(`${this.title}\n`);
    }
  }

  /** Feeds one run event to the chosen output (deploy, verify, destroy and prune alike). */
  readonly onEvent = (event: RunEvent): void => {
    this.model.onEvent(event);
    if (event.type === 'run-started') {
      // A deploy's prune is a second run: its lines keep the first run's clock.
      this.startedAt ??= Date.parse(event.at);
      this.runMode = event.mode;
    }
    this.emit(event, () =>
      formatRunEvent(event, this.startedAt ?? Date.parse(event.at), this.runMode, this.style),
    );
  };

  /** Stops the live view, leaving its last frame. */
  end(): void {
    this.view?.stop();
    this.view = undefined;
  }

  /** Prints summary lines (not in JSON mode, where the final JSON object is the summary). */
  summary(lines: readonly string[]): void {
    if (this.mode !== 'json') this.io.stdout.write(lines.join('\n') + '\n');
  }

  /** Prints one JSON line (JSON mode only). */
  json(value: unknown): void {
    if (this.mode === 'json') this.io.stdout.write(JSON.stringify(value) + '\n');
  }

  private emit(event: RunEvent, lines: () => string[]): void {
    if (this.mode === 'json') this.io.stdout.write(JSON.stringify(event) + '\n');
    else if (this.mode === 'lines') this.io.stdout.write(lines().join('\n') + '\n');
  }
}
