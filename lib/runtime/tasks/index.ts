export * from './clock';
export * from './manual-clock';
export * from './exponential-back-off';
export * from './task-queue';
export * from './restarting-task';
