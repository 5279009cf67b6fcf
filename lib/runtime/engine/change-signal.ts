/**
 * "Something changed": any number of waiters, woken together by the next `notify`. A waiter that
 * arrives after a notify waits for the following one (an edge, not a level), so the run loop
 * re-reads the state it cares about each time it wakes.
 */
export class ChangeSignal {
  private wake!: () => void;
  private next: Promise<void>;

  constructor() {
    this.next = this.arm();
  }

  /** Resolves on the next `notify`. */
  wait(): Promise<void> {
    return this.next;
  }

  notify(): void {
    const wake = this.wake;
    this.next = this.arm();
    wake();
  }

  private arm(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve));
  }
}
