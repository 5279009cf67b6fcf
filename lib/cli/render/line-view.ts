import { BOOTSTRAP_UNIT } from '../../graph';
import { formatDuration } from '../duration';
import { Style } from './ansi';
import type { DeletionEvent, RolloutEvent } from '../../runtime';

/**
 * One line per event, for CI logs and pipes: `[  12.3s] verified   keystone-api (4.1s)`. Times are
 * relative to the start of the run, so two logs of the same run compare line by line.
 */
export function formatRolloutEvent(event: RolloutEvent, startedAt: number, style: Style): string[] {
  const t = stamp(event.at, startedAt);
  switch (event.type) {
    case 'run-started':
      return [
        `${t} ${event.mode === 'deploy' ? 'deploying' : 'verifying'} ${event.components.length} components (${event.bootstrapObjects} bootstrap objects)`,
      ];
    case 'component-started':
      return [`${t} ${tag('started')} ${event.component}`];
    case 'object-applied':
      return [`${t} ${tag('applied')} ${event.component ?? BOOTSTRAP_UNIT} ${event.ref} ${event.action}`];
    case 'object-status':
      return [
        `${t} ${tag('status')} ${event.component ?? BOOTSTRAP_UNIT} ${event.ref} ${event.status}: ${event.message}`,
      ];
    case 'component-applied':
      return [
        `${t} ${tag('applied')} ${event.component}: all objects written (${formatDuration(event.durationMs)}), verifying`,
      ];
    case 'component-verified':
      return [
        `${t} ${style.green(tag('verified'))} ${event.component} (${formatDuration(event.durationMs)})`,
      ];
    case 'component-failed':
      return [
        `${t} ${style.red(tag('FAILED'))} ${event.component}: ${event.reason}`,
        ...(event.diagnosis ?? []).map((d) => `${indent()}↳ ${d}`),
      ];
    case 'component-blocked':
      return [`${t} ${style.yellow(tag('blocked'))} ${event.component}: blocked by ${event.blockedBy}`];
    case 'component-diagnosis':
      return [
        `${t} ${tag('diagnosis')} ${event.component}:`,
        ...event.diagnosis.map((d) => `${indent()}↳ ${d}`),
      ];
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

/** One line per deletion event (destroy, prune). */
export function formatDeletionEvent(event: DeletionEvent, startedAt: number, style: Style): string[] {
  const t = stamp(event.at, startedAt);
  switch (event.type) {
    case 'delete-started':
      return [`${t} deleting ${event.units.length} units in reverse dependency order`];
    case 'unit-deleting':
      return [`${t} ${tag('deleting')} ${event.unit}`];
    case 'object-deleted':
      return [`${t} ${tag('deleted')} ${event.unit} ${event.ref} (waiting until gone)`];
    case 'object-gone':
      return [`${t} ${tag('gone')} ${event.unit} ${event.ref}`];
    case 'unit-deleted':
      return [`${t} ${style.green(tag('deleted'))} ${event.unit} (${formatDuration(event.durationMs)})`];
    case 'unit-delete-failed':
      return [`${t} ${style.red(tag('FAILED'))} ${event.unit}: ${event.reason}`];
    case 'unit-delete-blocked':
      return [`${t} ${style.yellow(tag('kept'))} ${event.unit}: ${event.reason}`];
    case 'delete-finished':
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
