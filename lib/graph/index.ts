export * from './edge-kind';
export * from './annotations';
export * from './manifest';
export * from './topology';
export * from './component-graph';
export * from './render';
export * from './load-manifests';
export * from './group-kind';
