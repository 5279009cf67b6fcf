/**
 * The `stackwright` package: the model, the scheduling vocabulary, the manifest contract, the construct
 * library and the reference cloud (a starting point for one's own).
 */
export * from './lib';
export * from './constructs';
export { CINDER_CEPH_KEYRING, referenceCloud } from './stacks/reference-cloud';
export type { ReferenceCloudProps } from './stacks/reference-cloud';
export type {
  CeilometerOptions,
  OptionalServiceOptions,
  ReferenceCloudServices,
  ServiceOptions,
} from './stacks/reference-cloud-services';
export type { ControlPlaneServices } from './stacks/minimal-control-plane';
