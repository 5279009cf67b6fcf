import * as http from 'http';
import { KubeApiError, KubeStatus } from './errors';
import { KubeRequest, KubeResponse } from './kube-request';

// The HTTP plumbing of one request/response exchange with the API server, apart from the
// transport's policy (retries, liveness, counting).

/**
 * Destroys `request` with `error()` unless the whole answer (headers and body) arrived within `ms`.
 * (The `timeout` option of `http.request` is a socket idle timeout, and on a keep-alive agent
 * fires only after twice its value: not a deadline.)
 */
export function answerWithin(request: http.ClientRequest, ms: number, error: () => Error): void {
  const timer = setTimeout(() => request.destroy(error()), ms);
  const clear = () => clearTimeout(timer);
  request.on('response', (response) => response.on('end', clear).on('close', clear));
  request.on('close', clear);
  request.on('error', clear);
}

export function apiError(response: KubeResponse, req: Pick<KubeRequest, 'method' | 'path'>): KubeApiError {
  const status = isStatus(response.body) ? response.body : undefined;
  const message = status?.message ?? `${req.method} ${req.path}: HTTP ${response.status}`;
  return new KubeApiError(response.status, status?.reason ?? `HTTP${response.status}`, message, status);
}

function isStatus(body: unknown): body is KubeStatus {
  return typeof body === 'object' && body !== null && (body as { kind?: unknown }).kind === 'Status';
}

export function collect(response: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.on('error', reject);
  });
}

export function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || (error instanceof Error && error.name === 'AbortError');
}

export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  return code && !error.message.includes(code) ? `${code} ${error.message}` : error.message;
}

/** Sleeps `ms`, rejecting early with the signal's reason when it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
