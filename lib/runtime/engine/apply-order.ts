import { KubeObject, kindFacts, sortByKindRank } from '../../graph';

/** The bootstrap objects in apply order (the kinds table's rank, stable within a rank). */
export function bootstrapOrder(objects: readonly KubeObject[]): KubeObject[] {
  return sortByKindRank(objects);
}

/**
 * A component's objects split into what must be established first (its Namespaces and CRDs,
 * applied and waited for) and the rest (in synthesis order).
 */
export function componentPhases(objects: readonly KubeObject[]): {
  prerequisites: KubeObject[];
  rest: KubeObject[];
} {
  const isDefinition = (o: KubeObject) => kindFacts(o).role === 'definition';
  return {
    prerequisites: sortByKindRank(objects.filter(isDefinition)),
    rest: objects.filter((o) => !isDefinition(o)),
  };
}
