/**
 * The Kubernetes building blocks a service is composed of: pods, Jobs, Deployments and DaemonSets with
 * their placement, configuration files, generated Secrets and clustered StatefulSets. They import
 * nothing of OpenStack's wiring (oslo.config, Keystone, the endpoint contract): that is the kit's.
 */
export * from './secret-ref';
export * from './pod-template';
export * from './config-files';
export * from './job-component';
export * from './api-service';
export * from './worker-service';
export * from './generated-secret';
export * from './required-inputs';
export * from './clustered-stateful-set';
export * from './host-agent-daemon-set';
