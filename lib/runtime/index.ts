// Rollout engine (deciding half)
export * from './ports';
export * from './result';
export * from './events';
export * from './rollout-options';
export * from './rollout';
export * from './scheduler';
export * from './tasks';
export * from './readiness';
export * from './diagnose';
export * from './preflight';
