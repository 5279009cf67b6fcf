import { GraphComponent } from '../../graph';
import { formatMs } from '../timing/format-ms';
import { UnitContext } from './unit-action';
import { ComponentUnit, ComponentUnitDeps } from './component-unit';

/**
 * Verify's unit action: reads a component's objects (writes nothing) and judges them with the same
 * readiness table as deploy; when they are not all Current it waits up to `waitMs` for the watch
 * to show them Current, then fails naming the first object that is not.
 */
export class ReadAndJudge extends ComponentUnit {
  constructor(
    component: GraphComponent,
    deps: ComponentUnitDeps,
    private readonly waitMs: number,
  ) {
    super(component, deps);
  }

  async start(context: UnitContext): Promise<void> {
    this.observeAll(context);
    if (!(await this.each(context, this.component.objects, (t) => this.deps.session.read(t)))) return;
    this.startWaiting(context);
    const ms = this.waitMs;
    if (ms > 0) context.after(ms, () => this.notVerified(ms));
    this.judge();
    if (ms <= 0) this.notVerified(0);
  }

  private notVerified(ms: number): void {
    const context = this.context;
    if (!context?.isRunning()) return;
    const waiting = this.objects.filter((t) => t.status !== 'Current');
    const first = waiting[0];
    if (!first) return;
    const more = waiting.length > 1 ? ` (and ${waiting.length - 1} more object(s) not Current)` : '';
    const waited = ms > 0 ? ` after waiting ${formatMs(ms)}` : '';
    context.fail(
      `not verified${waited}: ${first.ref} is ${first.status}: ${first.message}${more}`,
      'timeout',
    );
  }
}
