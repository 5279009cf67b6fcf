import { GraphComponent } from '../../graph';
import { componentPhases } from './apply-order';
import { TrackedObject } from './tracked-object';
import { UnitContext } from './unit-action';
import { ComponentUnit, ComponentUnitDeps } from './component-unit';

/**
 * Deploy's unit action: applies a component's objects (its Namespaces and CRDs first, waited for
 * until established), then waits until every object is Current. A slow component is diagnosed
 * once after `diagnoseAfterMs`.
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
    if (this.diagnoseAfterMs !== undefined)
      context.after(this.diagnoseAfterMs, () => {
        if (context.isRunning()) this.diagnoseInBackground(context, () => context.isRunning());
      });
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
