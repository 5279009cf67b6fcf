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
// Doing half: the Kubernetes port, inventory, plan, deploy, prune, destroy
export * from './kube';
export * from './deploy-input';
export * from './inventory';
export * from './reverse-delete';
export * from './prune';
export * from './destroy';
export * from './plan';
export * from './deploy';
