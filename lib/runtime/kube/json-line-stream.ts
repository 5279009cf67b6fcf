import * as http from 'http';
import * as https from 'https';
import { apiError, collect, parseJson } from './http-exchange';

/** One streaming GET (a watch) and what the transport needs to know about it. */
export interface JsonLineStream {
  readonly client: typeof https | typeof http;
  readonly url: URL;
  /** For the error message of a refused stream. */
  readonly path: string;
  readonly agent: http.Agent;
  readonly headers: Record<string, string>;
  readonly signal: AbortSignal;
  /** Ends a stream that delivers nothing for this long (a half-open connection never ends by itself). */
  readonly idleTimeoutMs: number;
  /** The server accepted the stream (HTTP 200). */
  readonly opened: () => void;
  /** The request is on the wire (so the transport can cut it when the API server is lost). */
  readonly track: (request: http.ClientRequest) => void;
}

/**
 * Opens `stream` and calls `onLine` with every JSON line. Resolves when the server ends the
 * stream; rejects on transport errors, on a status other than 200 (as a `KubeApiError`), on a line
 * that is not JSON and when `onLine` throws.
 */
export function streamJsonLines(stream: JsonLineStream, onLine: (line: unknown) => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const request = stream.client.request(
      stream.url,
      { method: 'GET', agent: stream.agent, headers: stream.headers, signal: stream.signal },
      (response) => {
        if (response.statusCode !== 200) {
          collect(response)
            .then((text) =>
              reject(
                apiError(
                  { status: response.statusCode ?? 0, body: parseJson(text) },
                  { method: 'GET', path: stream.path },
                ),
              ),
            )
            .catch(reject);
          return;
        }
        stream.opened();
        const splitLines = jsonLines(onLine);
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          try {
            splitLines(chunk);
          } catch (error) {
            request.destroy(error instanceof Error ? error : new Error(String(error)));
          }
        });
        response.on('end', () => resolve());
        response.on('error', reject);
        response.on('aborted', () => reject(new Error('watch stream aborted by the server')));
      },
    );
    request.setTimeout(stream.idleTimeoutMs, () =>
      request.destroy(new Error(`watch stream idle for ${stream.idleTimeoutMs} ms`)),
    );
    stream.track(request);
    request.on('error', reject);
    request.end();
  });
}

/**
 * Reassembles text chunks into lines and hands each non-empty line, parsed as JSON, to `onLine`
 * (a watch sends one event per line; a chunk may hold part of a line or several). Throws when a
 * line is not JSON or `onLine` throws.
 */
export function jsonLines(onLine: (line: unknown) => void): (chunk: string) => void {
  let buffered = '';
  return (chunk) => {
    buffered += chunk;
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (line.length > 0) onLine(JSON.parse(line));
      newline = buffered.indexOf('\n');
    }
  };
}
