// The HTTP requests of the client transports, on node:http with a keep-alive agent of their own rather than
// fetch: fetch (undici, with WHATWG streams) spends about five times the CPU per small request, which
// over Streamable HTTP, one POST per message, is most of a call's cost. The answer has the little of
// Response the transports use: status, headers, the body as bytes or text, and a way to drop it.

import type http from 'node:http';
import type https from 'node:https';
import type { Socket } from 'node:net';
import { monotonicNow } from '../../jsonrpc/clock.js';
import type { Slotted } from '../../jsonrpc/slotted-set.js';
import { withKeys } from '../../jsonrpc/with-keys.js';
import { nodeHttp, nodeHttps, nodeUrl } from '../platform/builtins.js';

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
  signal?: StopSignal;
}

/** What stops a request in flight: an AbortSignal, or a RequestStop. */
export interface StopSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * The stop of one request, aborted once. The HTTP client made an AbortController for every POST, only to
 * stop it if the transport closed first: one costs some 5 µs in Node 20 (its signal is an EventTarget),
 * the most of anything in a client's call after the request itself (issue 21). This costs an object.
 */
export class RequestStop implements StopSignal, Slotted {
  aborted = false;
  slot?: number;
  private listeners: Array<() => void> | undefined;

  addEventListener(_type: 'abort', listener: () => void): void {
    if (this.aborted) return;
    this.listeners ??= [];
    this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const listeners = this.listeners;
    const at = listeners ? listeners.indexOf(listener) : -1;
    if (at !== -1) listeners!.splice(at, 1);
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners) for (const listener of listeners) listener();
  }
}

/** How a kept-alive connection that the server had closed fails a request sent on it. */
const STALE_CONNECTION = new Set(['ECONNRESET', 'EPIPE']);

/** The methods that may be sent twice without harm (RFC 9110 9.2.2): not POST. */
const IDEMPOTENT = new Set<HttpRequestOptions['method']>(['GET', 'PUT', 'DELETE']);

/**
 * How long a connection is kept idle for the next request (4 s), unless the server announces less
 * (`Keep-Alive: timeout=N`, less Node's one second of margin). Servers close idle connections on their own
 * clock, 5 s in node:http and uvicorn: a request sent on a connection the server is closing fails with
 * "connection reset", and a POST cannot safely be sent again, since nothing says the server did not read it.
 */
const IDLE_LIMIT_MS = 4000;

/**
 * When the last request on a connection was sent, on the requester's clock: what its idle time is counted
 * from. The server's own idle time starts later (once it has answered), so this errs on the safe side even
 * when this process, short of CPU, reads the answer seconds after it came; counting from the answer's
 * arrival did not, and a loaded machine still met closed connections.
 */
const lastSent = Symbol('lastSent');

type KeptSocket = Socket & { [lastSent]?: number };

export interface HttpRequesterOptions {
  /** Milliseconds on a monotonic clock (tests move it by hand). */
  now?: () => number;
}

/** Requests to one server, over connections kept open between them; destroy() closes them all. */
export class HttpRequester {
  // Made with the first request of their kind: node:http and node:https are loaded only then.
  private httpAgent: http.Agent | undefined;
  private httpsAgent: https.Agent | undefined;
  private readonly now: () => number;
  /**
   * The request options of the URL last requested (nearly always the one endpoint). Given the URL itself,
   * node:http turned it into them for every request, a visible part of a client's call (issue 21).
   */
  private target: { href: string; options: http.RequestOptions } | undefined;

  constructor(options: HttpRequesterOptions = {}) {
    this.now = options.now ?? monotonicNow;
  }

  request(url: URL, options: HttpRequestOptions): Promise<HttpAnswer> {
    return this.send(url, options, false);
  }

  private send(url: URL, options: HttpRequestOptions, again: boolean): Promise<HttpAnswer> {
    const secure = url.protocol === 'https:';
    const body = options.body === undefined ? undefined : Buffer.from(options.body, 'utf8');
    // Not a spread given a key after: that took V8's slow path in Node 20, about 1 µs a request.
    const headers: Record<string, string | number> = withKeys(options.headers, {});
    if (body) headers['Content-Length'] = body.length;
    return new Promise((resolve, reject) => {
      const signal = options.signal;
      if (signal?.aborted) return reject(abortError());
      let answered = false;
      const sentAt = this.now();
      const request = (secure ? nodeHttps() : nodeHttp()).request(
        withKeys(this.optionsOf(url), { method: options.method, headers, agent: this.agent(secure) }),
        (response) => {
          answered = true;
          resolve(answer(response));
        },
      );
      request.once('socket', (socket: KeptSocket) => {
        socket[lastSent] = sentAt;
      });
      // An abort or a broken connection may report more than once, also after the answer arrived (then to
      // whoever reads the body): never as an uncaught error. The signal is handled here rather than given
      // to http.request, whose own handling reports an abort after the answer as an uncaught error.
      request.on('error', (error: NodeJS.ErrnoException) => {
        // A kept connection that the server closed as this request went out on it: an idempotent request
        // is sent once more on a new connection, as Node's documentation of `reusedSocket` advises. A POST
        // is not: the server may have read it before it closed, and a tool called twice is worse than an
        // error. The idle limit is what spares it.
        const stale =
          !again &&
          !answered &&
          IDEMPOTENT.has(options.method) &&
          request.reusedSocket &&
          STALE_CONNECTION.has(error.code ?? '');
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

  private optionsOf(url: URL): http.RequestOptions {
    const href = url.href;
    if (this.target?.href !== href) this.target = { href, options: nodeUrl().urlToHttpOptions(url) };
    return this.target.options;
  }

  private agent(secure: boolean): http.Agent {
    let agent: http.Agent;
    if (secure)
      agent = this.httpsAgent ??= new (nodeHttps().Agent)({ keepAlive: true, timeout: IDLE_LIMIT_MS });
    else agent = this.httpAgent ??= new (nodeHttp().Agent)({ keepAlive: true, timeout: IDLE_LIMIT_MS });
    this.dropExpired(agent);
    return agent;
  }

  /**
   * Closes the kept connections idle past their limit (counted from their last request's sending) whose
   * timers have not fired yet. A process short of CPU (a loaded machine) runs the I/O that woke it before
   * its timers, so a request could otherwise go out on a connection the agent was about to close, and that
   * the server had closed already.
   */
  private dropExpired(agent: http.Agent): void {
    const now = this.now();
    // for...in: this runs before every request, and Object.values would make an array each time.
    for (const name in agent.freeSockets) {
      const sockets = agent.freeSockets[name];
      if (!sockets) continue;
      for (let i = sockets.length - 1; i >= 0; i--) {
        const socket = sockets[i] as KeptSocket;
        const since = socket[lastSent];
        const limit = socket.timeout ?? 0;
        if (since === undefined || limit <= 0 || now - since < limit) continue;
        // Out of the list at once: the agent takes a free socket before the close event that removes it.
        sockets.splice(i, 1);
        socket.destroy();
      }
    }
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
    text() {
      // Events, not an async iterator: that made an iterator, an end-of-stream watcher and promises for
      // every answer, a visible part of a client's call (issue 21). Read on 'readable' as the iterator
      // was, not on 'data': a request destroyed once its answer came (stopped, its transport closed) has
      // Node drop the answer's 'data' listeners and run it to its end, which handed such a reader a
      // cut-short text. It fails as the iterator did, with the stream's error or a close before the end,
      // and a body already read or discarded is refused instead of waited for.
      if (response.readableEnded || response.destroyed) {
        return Promise.reject(new Error('the answer was already read or discarded'));
      }
      return new Promise<string>((resolve, reject) => {
        const chunks: Buffer[] = [];
        response.on('readable', () => {
          for (let chunk: Buffer | null = response.read(); chunk !== null; chunk = response.read()) {
            chunks.push(chunk);
          }
        });
        response.once('end', () =>
          resolve((chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8')),
        );
        response.once('error', reject);
        response.once('close', () => {
          if (!response.readableEnded) reject(new Error('the response closed before its end'));
        });
      });
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
