export * from './scheduling-key';
export * from './reserved-labels';
export * from './placement';
export * from './pod-scheduling';
