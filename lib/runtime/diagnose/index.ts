export * from './placement';
export * from './placement-explanation';
export * from './pod-diagnosis';
export * from './workload-diagnosis';
