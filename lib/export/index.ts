export * from './dependency-units';
export * from './export-tree';
export * from './write-export-tree';
export * from './repo-path';
export * from './unit-folder';
export * from './flux';
export * from './kapp';
export * from './argocd';
