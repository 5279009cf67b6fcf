export * from './upgrade-phase';
export * from './service-recipes';
export * from './upgrade-plan';
export * from './upgrade-graph';
export * from './render-upgrade-plan';
export * from './manifest-release';
export * from './release-check';
