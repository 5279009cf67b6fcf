/**
 * A counter of the changes to the model that a synthesis plan reads: a component created, an edge
 * declared, a component disabled, a node agent declared, an object created in a cloud. A plan is
 * valid while the counter has not moved, so the checks, the rendering and the constructs that look
 * up the cloud's components share one plan per synthesis instead of walking the tree again.
 */
let generation = 0;

/** The current generation: compare with the one a plan was built at. */
export function modelGeneration(): number {
  return generation;
}

/** Records a change a synthesis plan reads. */
export function modelChanged(): void {
  generation++;
}
