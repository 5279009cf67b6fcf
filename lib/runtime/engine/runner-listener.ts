import { BlockedUnit } from './scheduler';
import { ApiState } from '../ports';

/** When a unit's state changed; what `DagRunner` tells the operation that composes it. */
export interface RunnerListener {
  started(name: string, at: number): void;
  applied(name: string, at: number): void;
  done(name: string, at: number): void;
  /** `diagnose` is false when the run was aborted or the failure came from the engine itself. */
  failed(name: string, at: number, reason: string, blocked: readonly BlockedUnit[], diagnose: boolean): void;
  /** The API server stopped answering; unit timers are paused until it is back. */
  apiLost?(at: number, state: Extract<ApiState, { state: 'lost' }>): void;
  /** The API server answers again after `lostForMs`; unit timers go on. */
  apiRestored?(at: number, lostForMs: number): void;
}
