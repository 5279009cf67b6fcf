export * from './placement';
export * from './pod-diagnosis';
export * from './workload-diagnosis';
