// The HTTP requests of the client transports, on node:http with a keep-alive agent of their own rather than
// fetch: fetch (undici, with WHATWG streams) spends about five times the CPU per small request, which
// over Streamable HTTP, one POST per message, is most of a call's cost. The answer has the little of
// Response the transports use: status, headers, the body as bytes or text, and a way to drop it.

import type http from 'node:http';
import type https from 'node:https';
import { nodeHttp, nodeHttps } from '../platform/builtins.js';

export interface HttpAnswer {
  status: number;
  ok: boolean;
  headers: { get(name: string): string | null };
  /** The body as it arrives; reading it ends with an error if the connection breaks. */
  body: AsyncIterable<Uint8Array>;
  text(): Promise<string>;
  /** Drops the rest of the body and the connection it came on. */
  cancel(): void;
  /** Reads the body to its end unseen, so that its connection can carry the next request. */
  skip(): void;
}

export interface HttpRequestOptions {
  method: 'GET' | 'POST' | 'DELETE' | 'PUT';
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

/** How a kept-alive connection that the server had closed fails a request sent on it. */
const STALE_CONNECTION = new Set(['ECONNRESET', 'EPIPE']);

/** Requests to one server, over connections kept open between them; destroy() closes them all. */
export class HttpRequester {
  // Made with the first request of their kind: node:http and node:https are loaded only then.
  private httpAgent: http.Agent | undefined;
  private httpsAgent: https.Agent | undefined;

  request(url: URL, options: HttpRequestOptions): Promise<HttpAnswer> {
    return this.send(url, options, false);
  }

  private send(url: URL, options: HttpRequestOptions, again: boolean): Promise<HttpAnswer> {
    const secure = url.protocol === 'https:';
    const body = options.body === undefined ? undefined : Buffer.from(options.body, 'utf8');
    const headers: Record<string, string | number> = { ...options.headers };
    if (body) headers['Content-Length'] = body.length;
    return new Promise((resolve, reject) => {
      const signal = options.signal;
      if (signal?.aborted) return reject(abortError());
      let answered = false;
      const request = (secure ? nodeHttps() : nodeHttp()).request(
        url,
        { method: options.method, headers, agent: this.agent(secure) },
        (response) => {
          answered = true;
          resolve(answer(response));
        },
      );
      // An abort or a broken connection may report more than once, also after the answer arrived (then to
      // whoever reads the body): never as an uncaught error. The signal is handled here rather than given
      // to http.request, whose own handling reports an abort after the answer as an uncaught error.
      request.on('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive connection that the server closed just as this request went out on it (its idle
        // timeout ran out then: a client slowed down by a login, or by a loaded machine, meets it): the
        // server never read the request, so it goes once more on a new connection, as browsers do and as
        // Node's documentation of `reusedSocket` advises. Only once, and never on a fresh connection.
        const stale = !again && !answered && request.reusedSocket && STALE_CONNECTION.has(error.code ?? '');
        if (stale && !signal?.aborted) resolve(this.send(url, options, true));
        else reject(error);
      });
      if (signal) {
        const abort = () => {
          reject(abortError());
          // Without an error: one would reach the socket, which after the answer has no listener left.
          request.destroy();
        };
        signal.addEventListener('abort', abort, { once: true });
        request.once('close', () => signal.removeEventListener('abort', abort));
      }
      request.end(body);
    });
  }

  private agent(secure: boolean): http.Agent {
    if (secure) {
      this.httpsAgent ??= new (nodeHttps().Agent)({ keepAlive: true });
      return this.httpsAgent;
    }
    this.httpAgent ??= new (nodeHttp().Agent)({ keepAlive: true });
    return this.httpAgent;
  }

  destroy(): void {
    this.httpAgent?.destroy();
    this.httpsAgent?.destroy();
  }
}

function answer(response: http.IncomingMessage): HttpAnswer {
  response.on('error', () => {});
  const status = response.statusCode ?? 0;
  return {
    status,
    ok: status >= 200 && status < 300,
    headers: {
      get(name) {
        const value = response.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    },
    body: response,
    async text() {
      const chunks: Buffer[] = [];
      for await (const chunk of response) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    cancel() {
      response.destroy();
    },
    skip() {
      response.resume();
    },
  };
}

function abortError(): Error {
  return Object.assign(new Error('the request was aborted'), { name: 'AbortError' });
}
