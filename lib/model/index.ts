export * from './cloud';
export * from './component';
export * from './service';
export * from './validation';
export * from './json-api-object';
export * from './pod-security';
export * from './releases';
export type {
  SynthesisPlan,
  PlannedObject,
  PlannedCloud,
  ComponentMetadata,
  WalkedCloud,
} from './synthesis-plan';
