export * from './graph';
export * from './scheduling';
export * from './model';
export * from './export';
