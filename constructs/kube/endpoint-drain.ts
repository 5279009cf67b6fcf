import { k8s } from 'cdk8s-plus-33';

/**
 * Seconds an API pod keeps serving after Kubernetes decides to stop it, before its process gets
 * SIGTERM. Deleting a pod and removing it from the Service's endpoints happen in parallel: the
 * EndpointSlice update reaches every node's kube-proxy (and any client-side balancer) a moment
 * later, and until then new connections still arrive. A process that stops listening at once
 * refuses them, which is the outage a naive roll shows. Ten seconds covers the propagation of an
 * EndpointSlice change on a loaded node with a wide margin; the budget is paid once per pod per roll.
 */
export const ENDPOINT_DRAIN_SECONDS = 10;

/**
 * Seconds the API process has after SIGTERM to finish its requests (uWSGI's graceful stop, see
 * uwsgi.ts): Kubernetes' default grace period, kept after the drain.
 */
const GRACEFUL_STOP_SECONDS = 30;

/**
 * The preStop hook that holds an API container for {@link ENDPOINT_DRAIN_SECONDS} (the kubelet's
 * own sleep action: no `sleep` binary needed in the image), so a pod leaves the endpoints before
 * it stops listening.
 */
export function endpointDrain(): k8s.Lifecycle {
  return { preStop: { sleep: { seconds: ENDPOINT_DRAIN_SECONDS } } };
}

/** The pod's grace period: the drain plus the graceful stop (the preStop hook counts against it). */
export const API_TERMINATION_GRACE_SECONDS = ENDPOINT_DRAIN_SECONDS + GRACEFUL_STOP_SECONDS;
