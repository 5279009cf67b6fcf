export * from './cloud';
export * from './component';
export * from './service';
export * from './validation';
export * from './pod-security';
