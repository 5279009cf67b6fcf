/**
 * Helpers for tests of stacks and constructs (`stackwright/testing`, docs/testing.md): synthesise a
 * cloud or one of its components or services, summarise and find objects, read placement and the
 * graph back from the manifests; an in-memory cluster and a manual clock for the runtime.
 */
export * from './synth-part';
export * from './objects';
export * from './summary';
export * from './in-memory-cluster';
export * from './manual-clock';
