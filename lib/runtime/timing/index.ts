export * from './clock';
export * from './exponential-back-off';
export * from './restarting-task';
export * from './timer';
export * from './pausable-timers';
