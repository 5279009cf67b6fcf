/**
 * The API server could not be reached at all (DNS, refused, TLS, timeout), stayed away past the
 * API-loss timeout, or no kubeconfig exists. Part of the port's contract: every `ClusterPort`
 * throws it for that, so the engine, the availability state machine and the CLI recognise it
 * without knowing the Kubernetes adapter.
 */
export class ClusterUnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClusterUnreachableError';
  }
}
