import * as http from 'http';
import * as https from 'https';
import { ApiAvailability } from '../availability/api-availability';
import { ApiLiveness, LivenessOptions } from './api-liveness';
import { KubeConnection } from './connection';
import { ClusterUnreachableError } from '../cluster-unreachable-error';
import { KubeApiError } from './errors';
import { answerWithin, apiError, collect, errorText, isAbort, parseJson, sleep } from './http-exchange';
import { streamJsonLines } from './json-line-stream';
import { probeReadyz } from './readyz-probe';
import { KubeRequest, KubeResponse } from './kube-request';
import { RequestCounter } from './request-counter';
import {
  backoffDelay,
  DEFAULT_RETRY,
  RETRYABLE_STATUS,
  RetryPolicy,
  SERVER_TROUBLE_STATUS,
  UNREACHABLE_CODES,
} from './retry-policy';

export type { KubeRequest, KubeResponse } from './kube-request';
export type { RetryPolicy } from './retry-policy';

/** How the transport watches over the API server's availability. */
export interface TransportHealthOptions {
  /** How long requests wait for a lost API server. @default 120000 */
  readonly apiLossTimeoutMs?: number;
  /** The liveness probe's pace and patience. */
  readonly liveness?: LivenessOptions;
}

/** Sent with every request, so audit logs can tell our requests apart (the rollout benchmark counts them). */
export const USER_AGENT = 'stackwright';

const REQUEST_TIMEOUT_MS = 30_000;
/** Error code of the requests the transport cuts when the API server is lost. */
const API_LOST = 'EAPILOST';
/**
 * A small HTTPS client for the Kubernetes API: keep-alive connections, counted requests, bounded
 * retries with jittered exponential back-off for what the API server documents as transient, and
 * line-streaming for watches. Written over `https` rather than client-node's generated clients
 * because server-side apply, dry runs, watch resumption and request counting all need control of
 * the raw request.
 */
export class KubeTransport {
  readonly counter = new RequestCounter();
  private readonly agent: http.Agent;
  private readonly streamAgent: http.Agent;
  /** `http` only for plain-HTTP servers (`kubectl proxy`); everything else is TLS. */
  private readonly client: typeof https | typeof http;
  private readonly probeAgent: http.Agent;
  private headers: Record<string, string> | undefined;
  private reachedOnce = false;
  /** Requests and streams on the wire, cut when the API server is lost so they wait and retry. */
  private readonly inFlight = new Set<http.ClientRequest>();
  /** Whether the API server answers; requests wait in it while it is lost. */
  readonly availability: ApiAvailability;
  /** The probe that tells a live API server from a lost one. */
  readonly liveness: ApiLiveness;

  constructor(
    readonly connection: KubeConnection,
    private readonly retry: RetryPolicy = DEFAULT_RETRY,
    /** `User-Agent` header; the benchmark gives each tool its own. */
    private readonly userAgent: string = USER_AGENT,
    health: TransportHealthOptions = {},
  ) {
    const tls = { ...connection.tls };
    const plain = connection.server.startsWith('http://');
    this.client = plain ? http : https;
    const Agent = plain ? http.Agent : https.Agent;
    this.agent = new Agent({ ...tls, keepAlive: true, maxSockets: 64 });
    // Watches hold their socket for minutes; keeping them apart stops them starving requests.
    this.streamAgent = new Agent({ ...tls, keepAlive: false });
    // A probe opens a connection of its own (see probeReadyz).
    this.probeAgent = new Agent({ ...tls, keepAlive: false });
    this.availability = new ApiAvailability({
      lossTimeoutMs: health.apiLossTimeoutMs,
      clock: health.liveness?.clock,
      server: connection.server,
    });
    this.liveness = new ApiLiveness((ms) => this.probe(ms), this.availability, health.liveness);
    this.availability.subscribe((state) => {
      if (state.state === 'lost') this.cutInFlight(state.reason);
    });
  }

  /**
   * Sends a request, retrying transient failures; throws `KubeApiError` for any other non-2xx.
   * When the API server stops answering after it answered once, the request waits for it (see
   * `availability`) and is sent again when it is back; it fails with `ClusterUnreachableError`
   * only when the server stayed away past the API-loss timeout.
   */
  async request(req: KubeRequest): Promise<KubeResponse> {
    const release = this.liveness.use();
    try {
      return await this.send(req);
    } finally {
      release();
    }
  }

  private async send(req: KubeRequest): Promise<KubeResponse> {
    for (let attempt = 1; ; attempt++) {
      if (this.availability.current.state === 'lost') await this.availability.whenAvailable(req.signal);
      try {
        const response = await this.once(req);
        this.answered(response.status);
        if (response.status === 401 && attempt === 1) {
          this.headers = undefined; // a token may have expired: resolve the credentials again
          continue;
        }
        if (response.status >= 200 && response.status < 300) return response;
        const error = apiError(response, req);
        if (!RETRYABLE_STATUS.has(response.status)) throw error;
        if (attempt >= this.retry.attempts) {
          // Retries spent on 5xx: a restarting API server answers so; wait for it if it is down.
          if (SERVER_TROUBLE_STATUS.has(response.status) && !(await this.liveness.check())) {
            attempt = 0;
            continue;
          }
          throw error;
        }
        await sleep(this.delay(attempt, error.body?.details?.retryAfterSeconds), req.signal);
      } catch (error) {
        if (error instanceof KubeApiError || isAbort(error, req.signal)) throw error;
        const code = (error as NodeJS.ErrnoException).code ?? '';
        if (!this.reachedOnce) {
          // Nothing answered yet: a wrong address or a server that never answers, not a lost one.
          const timedOut = code === 'ETIMEDOUT';
          if (attempt >= this.retry.attempts || (UNREACHABLE_CODES.has(code) && (timedOut || attempt >= 2)))
            throw this.unreachable(error);
        } else {
          if (this.availability.current.state === 'gone') throw this.availability.unreachableError();
          if (!(await this.liveness.check())) {
            attempt = 0; // lost: the top of the loop waits for it, then tries afresh
            continue;
          }
          if (attempt >= this.retry.attempts) throw this.unreachable(error);
        }
        await sleep(this.delay(attempt), req.signal);
      }
    }
  }

  /**
   * Opens a streaming GET (a watch) and calls `onLine` with every JSON line. Resolves when the
   * server ends the stream, rejects on transport errors or a non-200 status. Counted as one request.
   */
  async stream(
    path: string,
    query: Record<string, string | undefined>,
    onLine: (line: unknown) => void,
    signal: AbortSignal,
    /** Give up on a stream that delivers nothing for this long (a half-open connection never ends by itself). */
    idleTimeoutMs = 600_000,
  ): Promise<void> {
    this.counter.record('watch');
    if (this.availability.current.state === 'lost') await this.availability.whenAvailable(signal);
    const headers = await this.authHeaders();
    const release = this.liveness.use();
    try {
      await streamJsonLines(
        {
          client: this.client,
          url: this.url(path, query),
          path,
          agent: this.streamAgent,
          headers: { ...headers, Accept: 'application/json', 'User-Agent': this.userAgent },
          signal,
          idleTimeoutMs,
          opened: () => this.answered(200),
          track: (request) => this.track(request),
        },
        onLine,
      );
    } catch (error) {
      // A broken watch may be the first sign of a lost API server (its list will wait for it).
      if (this.reachedOnce && !(error instanceof KubeApiError) && !signal.aborted) void this.liveness.check();
      throw error;
    } finally {
      release();
    }
  }

  /**
   * `GET /readyz` on a fresh connection within `timeoutMs`, not counted: resolves when the API
   * server answers (any status below 500: even a refusal of our credentials is an answer), rejects
   * saying why not.
   */
  async probe(timeoutMs: number): Promise<void> {
    const headers = { ...(await this.authHeaders()), 'User-Agent': this.userAgent };
    await probeReadyz(
      { client: this.client, url: this.url('/readyz', {}), agent: this.probeAgent, headers },
      timeoutMs,
    );
  }

  /** Closes idle keep-alive sockets and stops probing; in-flight requests finish. */
  close(): void {
    this.liveness.close();
    this.agent.destroy();
    this.streamAgent.destroy();
    this.probeAgent.destroy();
  }

  /**
   * The API server answered: it is reachable, and no longer lost if it was — unless it answered
   * with a server error (a restarting API server does until it is ready; the probe decides then).
   */
  private answered(status: number): void {
    this.reachedOnce = true;
    this.liveness.answered();
    if (status < 500 && this.availability.current.state !== 'available') this.availability.restored();
  }

  private track(request: http.ClientRequest): void {
    this.inFlight.add(request);
    request.on('close', () => this.inFlight.delete(request));
  }

  /** Cuts every request and stream on the wire: they wait for the API server and try again. */
  private cutInFlight(reason: string): void {
    for (const request of [...this.inFlight])
      request.destroy(Object.assign(new Error(`API server lost: ${reason}`), { code: API_LOST }));
  }

  private unreachable(error: unknown): ClusterUnreachableError {
    return new ClusterUnreachableError(
      `cannot reach the API server at ${this.connection.server} (context ${this.connection.context}): ${errorText(error)}`,
    );
  }

  private async once(req: KubeRequest): Promise<KubeResponse> {
    this.counter.record(req.verb);
    const headers: Record<string, string> = {
      ...(await this.authHeaders()),
      Accept: req.accept ?? 'application/json',
      'User-Agent': this.userAgent,
    };
    let payload: string | undefined;
    if (req.body !== undefined) {
      payload = JSON.stringify(req.body);
      headers['Content-Type'] = req.contentType ?? 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(payload));
    }
    return new Promise<KubeResponse>((resolve, reject) => {
      const request = this.client.request(
        this.url(req.path, req.query ?? {}),
        {
          method: req.method,
          agent: this.agent,
          headers,
          signal: req.signal,
        },
        (response) => {
          collect(response)
            .then((text) => resolve({ status: response.statusCode ?? 0, body: parseJson(text) }))
            .catch(reject);
        },
      );
      const timeoutMs = req.timeoutMs ?? REQUEST_TIMEOUT_MS;
      answerWithin(request, timeoutMs, () =>
        Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' }),
      );
      this.track(request);
      request.on('error', reject);
      if (payload !== undefined) request.write(payload);
      request.end();
    });
  }

  private async authHeaders(): Promise<Record<string, string>> {
    if (!this.headers) this.headers = await this.connection.authHeaders();
    return this.headers;
  }

  private url(path: string, query: Readonly<Record<string, string | undefined>>): URL {
    const url = new URL(this.connection.server + path);
    for (const [name, value] of Object.entries(query))
      if (value !== undefined) url.searchParams.set(name, value);
    return url;
  }

  private delay(attempt: number, retryAfterSeconds?: number): number {
    return backoffDelay(this.retry, attempt, retryAfterSeconds);
  }
}
