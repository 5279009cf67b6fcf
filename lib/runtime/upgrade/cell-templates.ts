import { Annotations, ComponentGraph, KubeObject } from '../../graph';

/** A further cell's migration Job of a service, with the component that holds it. */
export interface CellTemplate {
  readonly component: string;
  readonly template: KubeObject;
}

/**
 * Every `cell-schema-sync` template of `service` in graph order: the migration Jobs of the cells
 * its own upgrade steps do not reach (Nova's cells 2 and up), in whose pods the recipe's per-cell
 * steps run.
 */
export function cellTemplates(graph: ComponentGraph, service: string): CellTemplate[] {
  return graph.components
    .filter((c) => c.service === service)
    .flatMap((c) =>
      c.objects
        .filter((o) => o.metadata.annotations?.[Annotations.UPGRADE_TEMPLATE] === 'cell-schema-sync')
        .map((template) => ({ component: c.name, template })),
    );
}
