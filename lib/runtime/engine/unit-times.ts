import { FailureCause } from '../result';

/** The bookkeeping of one unit in a run: when it started, applied, finished or failed, and why. */
export interface UnitTimes {
  startedAt?: number;
  appliedAt?: number;
  doneAt?: number;
  failedAt?: number;
  cause?: FailureCause;
}

/** The times of every unit that started, created on first use. */
export class UnitTimesBook extends Map<string, UnitTimes> {
  of(name: string): UnitTimes {
    let times = this.get(name);
    if (!times) {
      times = {};
      this.set(name, times);
    }
    return times;
  }
}
