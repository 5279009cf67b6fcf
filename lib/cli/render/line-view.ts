import { BOOTSTRAP_UNIT } from '../../graph';
import { formatDuration } from '../duration';
import { Style } from './ansi';
import type { RunEvent, RunMode } from '../../runtime';

/** The words of each kind of run: what it does to a unit, and what a done or blocked unit is. */
const WORDS: Readonly<
  Record<RunMode, { readonly doing: string; readonly done: string; readonly blocked: string }>
> = {
  deploy: { doing: 'deploying', done: 'verified', blocked: 'blocked' },
  verify: { doing: 'verifying', done: 'verified', blocked: 'blocked' },
  destroy: { doing: 'deleting', done: 'deleted', blocked: 'kept' },
  prune: { doing: 'pruning', done: 'deleted', blocked: 'kept' },
};

/** The words of `mode`'s rows and lines. */
export function wordsOf(mode: RunMode): (typeof WORDS)[RunMode] {
  return WORDS[mode];
}

/**
 * One line per event, for CI logs and pipes: `[  12.3s] verified   keystone-api (4.1s)`. Times are
 * relative to the start of the run, so two logs of the same run compare line by line. `mode` is the
 * run's (from its `run-started`).
 */
export function formatRunEvent(event: RunEvent, startedAt: number, mode: RunMode, style: Style): string[] {
  const t = stamp(event.at, startedAt);
  const words = WORDS[mode];
  switch (event.type) {
    case 'run-started':
      return [
        event.mode === 'deploy' || event.mode === 'verify'
          ? `${t} ${WORDS[event.mode].doing} ${event.units.length} components (${event.bootstrapObjects} bootstrap objects)`
          : `${t} ${WORDS[event.mode].doing} ${event.units.length} units in reverse dependency order`,
      ];
    case 'unit-started':
      return [`${t} ${tag(mode === 'destroy' || mode === 'prune' ? 'deleting' : 'started')} ${event.unit}`];
    case 'object-applied':
      return [`${t} ${tag('applied')} ${event.unit ?? BOOTSTRAP_UNIT} ${event.ref} ${event.action}`];
    case 'object-status':
      return [
        `${t} ${tag('status')} ${event.unit ?? BOOTSTRAP_UNIT} ${event.ref} ${event.status}: ${event.message}`,
      ];
    case 'object-deleted':
      return [`${t} ${tag('deleted')} ${event.unit} ${event.ref} (waiting until gone)`];
    case 'object-gone':
      return [`${t} ${tag('gone')} ${event.unit} ${event.ref}`];
    case 'unit-applied':
      return [
        `${t} ${tag('applied')} ${event.unit}: all objects written (${formatDuration(event.durationMs)}), verifying`,
      ];
    case 'unit-done':
      return [`${t} ${style.green(tag(words.done))} ${event.unit} (${formatDuration(event.durationMs)})`];
    case 'unit-failed':
      return [
        `${t} ${style.red(tag('FAILED'))} ${event.unit}: ${event.reason}`,
        ...(event.diagnosis ?? []).map((d) => `${indent()}↳ ${d}`),
      ];
    case 'unit-blocked':
      return [
        words.blocked === 'kept'
          ? `${t} ${style.yellow(tag('kept'))} ${event.unit}: ${event.reason}`
          : `${t} ${style.yellow(tag('blocked'))} ${event.unit}: blocked by ${event.blockedBy}`,
      ];
    case 'unit-diagnosis':
      return [`${t} ${tag('diagnosis')} ${event.unit}:`, ...event.diagnosis.map((d) => `${indent()}↳ ${d}`)];
    case 'api-lost':
      return [
        `${t} ${style.red(tag('API LOST'))} the API server does not answer (${event.reason}); waiting up to ${formatDuration(Date.parse(event.waitingUntil) - Date.parse(event.at))} for it, component timers paused`,
      ];
    case 'api-restored':
      return [
        `${t} ${style.green(tag('API back'))} after ${formatDuration(event.lostForMs)}; resuming where the run was`,
      ];
    case 'run-finished':
      return [
        `${t} ${tag('finished')} ${event.result.outcome} in ${formatDuration(event.result.durationMs)}`,
      ];
  }
}

function stamp(at: string, startedAt: number): string {
  const seconds = Math.max(0, (Date.parse(at) - startedAt) / 1000);
  return `[${seconds.toFixed(1).padStart(6)}s]`;
}

function tag(word: string): string {
  return word.padEnd(9);
}

function indent(): string {
  return ' '.repeat(20);
}
