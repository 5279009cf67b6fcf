export * from './cluster-event';
export * from './event-rule';
export * from './event-rules';
