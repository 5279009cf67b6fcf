export * from './cloud';
export * from './component';
export * from './dependable';
export * from './service';
export * from './validation';
