/**
 * Errors of the Kubernetes port. They carry what the CLI needs to pick an exit code and what a
 * person needs to act: the HTTP status, the API server's reason and message, the object.
 */

/** The API server answered with a non-2xx status. */
export class KubeApiError extends Error {
  constructor(
    readonly status: number,
    /** `Status.reason` from the server, e.g. `NotFound`, `Conflict`, `Invalid`, `AlreadyExists`. */
    readonly reason: string,
    message: string,
    /** The decoded `Status` body, when the server sent one. */
    readonly body?: KubeStatus,
  ) {
    super(message);
    this.name = 'KubeApiError';
  }

  /**
   * Worth trying again after a back-off: throttling, server errors (webhooks still starting, etcd
   * leader changes), and a namespace that was created moments ago but is not visible yet.
   */
  get retryable(): boolean {
    if (this.status === 429 || this.status >= 500) return true;
    return this.status === 404 && this.body?.details?.kind === 'namespaces';
  }
}

/** Discovery knows no resource for a kind: usually a CRD that is not installed (yet). */
export class NoMatchError extends Error {
  constructor(
    readonly apiVersion: string,
    readonly kind: string,
  ) {
    super(
      `the cluster has no resource for ${apiVersion} ${kind}: is its CustomResourceDefinition installed, ` +
        'and does its component depend on the component that installs it?',
    );
    this.name = 'NoMatchError';
  }

  /** A CRD applied moments ago shows up in discovery shortly after it is established. */
  readonly retryable = true;
}

/** The subset of `meta/v1 Status` the runtime reads. */
export interface KubeStatus {
  readonly kind?: string;
  readonly status?: string;
  readonly message?: string;
  readonly reason?: string;
  readonly code?: number;
  readonly details?: {
    readonly name?: string;
    readonly kind?: string;
    readonly causes?: readonly {
      readonly reason?: string;
      readonly message?: string;
      readonly field?: string;
    }[];
    readonly retryAfterSeconds?: number;
  };
}

/** True for a 404 from the API server. */
export function isNotFound(error: unknown): boolean {
  return error instanceof KubeApiError && error.status === 404;
}

/** An API error whose message starts with the object it is about (`Kind/namespace/name: …`); other errors as they are. */
export function aboutObject(ref: string, error: unknown): unknown {
  if (error instanceof KubeApiError && !error.message.startsWith(ref)) {
    return new KubeApiError(error.status, error.reason, `${ref}: ${error.message}`, error.body);
  }
  return error;
}
