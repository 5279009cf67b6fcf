import { RequestVerb } from './request-counter';

/** One HTTP request to the API server. */
export interface KubeRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Absolute path, e.g. `/apis/apps/v1/namespaces/x/deployments/y`. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | undefined>>;
  /** Serialised as JSON unless `contentType` says YAML (server-side apply accepts JSON as YAML). */
  readonly body?: unknown;
  readonly contentType?: string;
  readonly accept?: string;
  /** How the request is counted; retries count again. */
  readonly verb: RequestVerb;
  readonly signal?: AbortSignal;
  /** Give up on an answer after this long. @default 30000 */
  readonly timeoutMs?: number;
}

/** The API server's answer: its status and parsed body (text when not JSON). */
export interface KubeResponse {
  readonly status: number;
  readonly body: unknown;
}
