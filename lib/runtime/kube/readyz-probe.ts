import * as http from 'http';
import * as https from 'https';
import { answerWithin, errorText } from './http-exchange';

/** Where and how the probe asks. */
export interface ReadyzProbeTarget {
  readonly client: typeof https | typeof http;
  /** The server's `/readyz` URL. */
  readonly url: URL;
  /** An agent without keep-alive: a reused socket would say nothing about the server now. */
  readonly agent: http.Agent;
  readonly headers: Record<string, string>;
}

/**
 * `GET /readyz` within `timeoutMs`: resolves when the API server answers with any status below 500
 * (even a refusal of our credentials is an answer), rejects saying why not.
 */
export function probeReadyz(target: ReadyzProbeTarget, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const request = target.client.request(
      target.url,
      { method: 'GET', agent: target.agent, headers: target.headers },
      (response) => {
        response.resume();
        const status = response.statusCode ?? 0;
        if (status >= 500) reject(new Error(`GET /readyz answered HTTP ${status}`));
        else resolve();
      },
    );
    answerWithin(request, timeoutMs, () => new Error(`no answer to GET /readyz within ${timeoutMs} ms`));
    request.on('error', (error) => reject(new Error(errorText(error))));
    request.end();
  });
}
