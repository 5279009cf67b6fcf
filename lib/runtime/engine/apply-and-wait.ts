import { GraphComponent } from '../../graph';
import { componentPhases } from './apply-order';
import { TrackedObject } from './tracked-object';
import { UnitContext } from './unit-action';
import { ComponentUnit, ComponentUnitDeps } from './component-unit';

/**
 * Deploy's unit action: applies a component's objects (its Namespaces and CRDs first, waited for
 * until established), then waits until every object is Current. A slow component is diagnosed
 * after `diagnoseAfterMs` and again every `diagnoseAfterMs` until it ends; a stuck state the
 * cluster names (a quota, a missing StorageClass, a crash loop, …) and that two rounds in a row
 * confirm fails it with its cause, long before its timeout.
 */
export class ApplyAndWait extends ComponentUnit {
  constructor(
    component: GraphComponent,
    deps: ComponentUnitDeps,
    private readonly diagnoseAfterMs: number | undefined,
  ) {
    super(component, deps);
  }

  async start(context: UnitContext): Promise<void> {
    const every = this.diagnoseAfterMs;
    if (every !== undefined) {
      const startedAt = context.clock.now();
      const round = () => {
        if (!context.isRunning()) return;
        this.diagnoseInBackground(context, () => context.isRunning(), startedAt);
        context.after(every, round);
      };
      context.after(every, round);
    }
    this.observeAll(context);
    const { prerequisites, rest } = componentPhases(this.component.objects);
    const apply = (tracked: TrackedObject) => this.deps.session.apply(tracked, context.signal);
    if (!(await this.each(context, prerequisites, apply))) return;
    if (prerequisites.length > 0 && rest.length > 0) {
      // CRs need their CRD established and namespaced objects their namespace Active.
      const prereqs = prerequisites.map((o) => this.trackedOf(o));
      while (context.isRunning() && !prereqs.every((t) => t.status === 'Current')) await context.changed();
    }
    if (!(await this.each(context, rest, apply))) return;
    this.startWaiting(context);
    this.judge();
  }

  protected nothingWritten(): boolean {
    return this.objects.every((t) => t.applied === undefined);
  }
}
