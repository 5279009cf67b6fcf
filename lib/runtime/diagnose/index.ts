export * from './diagnose-component';
export * from './events';
export * from './finding';
export * from './involved-objects';
export * from './placement';
export * from './placement-explanation';
export * from './pod-diagnosis';
export * from './workload-diagnosis';
