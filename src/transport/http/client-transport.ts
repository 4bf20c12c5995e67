// The client side of Streamable HTTP: each message is POSTed; the answer comes as JSON or as an SSE
// stream. The session id the server gives goes on every later request, and once told the negotiated
// protocol version (setProtocolVersion), so does MCP-Protocol-Version; a GET stream then carries what the
// server sends on its own. A message sent `standalone` goes on a POST of its own with its own headers and
// no session (the stateless revision's requests), and aborting its signal closes that POST, which is how
// such a request is cancelled. A stream that breaks before its responses arrived is resumed with
// Last-Event-ID after the server's `retry` delay. What the messages mean is the client's business: this
// transport never reads a method name.

import type { CloseReason } from '../../jsonrpc/errors.js';
import { classify, type JsonRpcId, type JsonRpcPayload } from '../../jsonrpc/messages.js';
import { SlottedSet } from '../../jsonrpc/slotted-set.js';
import type { MessageInfo, SendOptions, Transport, TransportHandlers } from '../../jsonrpc/transport.js';
import { withKeys } from '../../jsonrpc/with-keys.js';
import { fixedRetry, type RetryPolicy } from '../retry.js';
import type { HttpAuthorization } from './auth/oauth-client.js';
import { authorizationFailure, failedRequest, httpRefusal, notMcp, unreachable } from './client-failures.js';
import { type HttpAnswer, HttpRequester, RequestStop } from './http-request.js';
import { readResumable } from './resumable-stream.js';

export interface HttpClientTransportOptions {
  /** Extra headers on every request (Authorization, say). */
  headers?: Record<string, string>;
  /** Open a GET stream for server-initiated messages once the session has its protocol version (true). */
  openStream?: boolean;
  /**
   * How a broken stream is resumed: the delay before each attempt in a row that brings nothing, and when
   * to give up (its requests then fail). A delay the server names in `retry` wins. By default
   * fixedRetry(reconnectDelay, maxReconnects).
   */
  reconnect?: RetryPolicy;
  /** Shorthand for a fixed reconnect policy: attempts (5), and the delay when the server gives none (1000 ms). */
  maxReconnects?: number;
  reconnectDelay?: number;
  /**
   * Called when the first message that would open a session is refused with a 4xx status that is not
   * about authorization or limits (a server of the older HTTP+SSE transport answers its POST so). Returning
   * true takes the message over (FallbackHttpTransport sends it the older way): this transport then fails
   * nothing and delivers nothing more.
   */
  fallback?: (payload: JsonRpcPayload, status: number) => boolean;
  /**
   * Authorizes every request (an OAuthClient): its header goes on each request, and a 401 or 403 is put
   * to it; when it has a new token, the request is sent again.
   */
  authorization?: HttpAuthorization;
  /**
   * The largest SSE event kept while it arrives, in bytes (256 MiB): a server that never ends one fails
   * the requests of its stream instead of filling memory.
   */
  maxMessageSize?: number;
}

/** How many times one message is sent again after its authorization was refused and renewed. */
const MAX_AUTHORIZATION_RETRIES = 3;

/** 4xx answers that say something about the request itself, never that the transport is the wrong one. */
const NOT_A_FALLBACK = new Set([401, 403, 407, 408, 413, 429]);

const ACCEPT = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
/** No headers of a message's own. */
const NO_HEADERS: Readonly<Record<string, string>> = {};

export class HttpClientTransport implements Transport {
  /** A standalone message gets a POST of its own, which closing cancels. */
  readonly streamPerRequest = true;
  private handlers: TransportHandlers | undefined;
  private sessionId: string | undefined;
  private protocolVersion: string | undefined;
  /** The GET streams' requests in flight, which closing stops. */
  private readonly controllers = new Set<AbortController>();
  /** The POSTs' requests in flight, which closing stops. */
  private readonly posts = new SlottedSet<RequestStop>();
  private closeReason: CloseReason | undefined;
  /** Set as close() starts: no stream is resumed from then on. */
  private closing = false;
  /** The GET stream opens after the first session message sent once the version is known. */
  private streamDue = false;
  private streamOpened = false;
  /** Set while the GET stream waits to open: session messages sent meanwhile go after it. */
  private streamGate: Promise<void> | undefined;
  /** Whether a session message was ever accepted: only the first one may fall back. */
  private accepted = false;
  private readonly requester = new HttpRequester();
  /** The Authorization header of the last request, for the GETs and DELETE that follow it. */
  private authHeader: string | undefined;
  private readonly endpoint: URL;

  constructor(
    readonly url: string | URL,
    private readonly options: HttpClientTransportOptions = {},
  ) {
    this.endpoint = new URL(url);
  }

  start(handlers: TransportHandlers): void {
    this.handlers = handlers;
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    this.streamDue = true;
  }

  send(payload: JsonRpcPayload, options?: SendOptions): void {
    if (this.closeReason) return;
    const requestIds: JsonRpcId[] = [];
    for (const item of Array.isArray(payload) ? payload : [payload]) {
      const c = classify(item);
      if (c.kind === 'request') requestIds.push(c.message.id);
    }
    if (options?.standalone && !Array.isArray(payload)) {
      if (options.signal?.aborted) return;
      void this.post(
        payload,
        requestIds,
        withKeys(withKeys(this.options.headers, ACCEPT), options.headers ?? NO_HEADERS),
        options,
      );
      return;
    }
    const post = () =>
      this.post(
        payload,
        requestIds,
        this.headers(options?.headers ? withKeys(ACCEPT, options.headers) : ACCEPT),
        options,
      );
    if (this.streamGate) {
      void this.streamGate.then(post);
      return;
    }
    const posted = post();
    if (this.streamDue) {
      // The GET stream opens after the server took this message (notifications/initialized, in MCP's
      // handshake), not before; and before the messages sent meanwhile, which wait for it. A server may
      // take the first GET for the stream it answers on (the conformance suite's does): sent after a
      // request, the GET would carry that request's answer.
      this.streamDue = false;
      this.streamGate = posted.then(() => {
        this.streamGate = undefined;
        void this.openServerStream();
      });
    }
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  async close(): Promise<void> {
    if (this.closeReason) return;
    this.closing = true;
    for (const controller of this.controllers) controller.abort();
    for (const stop of this.posts) stop.abort();
    if (this.sessionId) {
      await this.requester
        .request(this.endpoint, { method: 'DELETE', headers: await this.withProof('DELETE', this.headers()) })
        .then((answer) => answer.skip())
        .catch(() => {});
    }
    this.finish({ message: 'closed' });
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    // Copied with withKeys, and given keys after: a spread copy given keys took V8's slow path (about
    // 1 µs a POST in Node 20).
    const headers: Record<string, string> = withKeys(this.options.headers, extra);
    if (this.authHeader) headers.Authorization = this.authHeader;
    if (this.sessionId) headers['Mcp-Session-Id'] = this.sessionId;
    if (this.protocolVersion) headers['MCP-Protocol-Version'] = this.protocolVersion;
    return headers;
  }

  /**
   * Waits for the authorization's own work (a refresh, a login in a browser) with the connection's
   * timeouts held: a person logging in is no server slow to answer.
   */
  private async holding<T>(work: Promise<T>): Promise<T> {
    const handlers = this.handlers;
    handlers?.held?.(true);
    try {
      return await work;
    } finally {
      handlers?.held?.(false);
    }
  }

  /** The headers with a DPoP proof for this request added, when the token is DPoP-bound (RFC 9449). */
  private async withProof(method: string, headers: Record<string, string>): Promise<Record<string, string>> {
    const proof = this.authHeader
      ? this.options.authorization?.proof?.(method, this.endpoint.href)
      : undefined;
    // A proof that cannot be made sends the request without one: the server's refusal then says so.
    return proof ? withKeys(headers, { DPoP: await proof.catch(() => '') }) : headers;
  }

  private async post(
    payload: JsonRpcPayload,
    requestIds: JsonRpcId[],
    headers: Record<string, string>,
    options: SendOptions | undefined,
    attempt = 0,
  ): Promise<void> {
    const standalone = options?.standalone === true;
    const { authorization } = this.options;
    if (authorization) {
      try {
        // Usually known at once (a stored token): no await, so a POST is not put off by a turn.
        const header = authorization.authorization();
        this.authHeader = typeof header === 'object' ? await this.holding(header) : header;
      } catch (error) {
        return this.finish(authorizationFailure(this.url, error));
      }
      if (this.authHeader) headers = withKeys(headers, { Authorization: this.authHeader });
      try {
        const proof = this.authHeader ? authorization.proof?.('POST', this.endpoint.href) : undefined;
        if (proof) headers = withKeys(headers, { DPoP: await proof });
      } catch (error) {
        return this.finish(authorizationFailure(this.url, error));
      }
    }
    // Given up on while the authorization was awaited (a login, a refresh): it is not sent at all.
    if (options?.signal?.aborted) return;
    // Stopped if the transport closes first (not an AbortController: one per POST cost some 5 µs).
    const stop = new RequestStop();
    this.posts.add(stop);
    // The sender giving up on a standalone request closes its POST: the server takes that as cancellation.
    const signal = options?.signal;
    const abandon = signal ? () => stop.abort() : undefined;
    if (abandon) signal!.addEventListener('abort', abandon, { once: true });
    try {
      const response = await this.requester.request(this.endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify(payload),
        signal: stop,
      });
      const session = standalone ? null : response.headers.get('mcp-session-id');
      if (session) this.sessionId = session;
      const first = !standalone && !this.accepted;
      if (response.ok && !standalone) this.accepted = true;
      if (response.status === 202) return response.skip();
      const type = response.headers.get('content-type') ?? '';
      if (!response.ok) {
        const text = await response.text();
        const body = parseJson(text);
        const status = response.status;
        // A server that cannot be used as it is (it wants authorization, say) ends the transport: every
        // request would be refused the same way, and the reason is worth one clear sentence, not one each.
        if ((status === 401 || status === 403) && authorization && attempt < MAX_AUTHORIZATION_RETRIES) {
          let again: boolean;
          try {
            again = await this.holding(
              authorization.refused({
                status,
                wwwAuthenticate: response.headers.get('www-authenticate'),
                dpopNonce: response.headers.get('dpop-nonce'),
              }),
            );
          } catch (error) {
            return this.finish(authorizationFailure(this.url, error));
          }
          if (again) return this.post(payload, requestIds, headers, options, attempt + 1);
        }
        if (status === 401 || status === 403) return this.finish(httpRefusal(this.url, response, text));
        // An error may come with a 4xx status and the JSON-RPC error as the body.
        if (this.deliverErrorBody(body, requestIds[0])) return;
        if (first && status >= 400 && status < 500 && !NOT_A_FALLBACK.has(status)) {
          if (this.options.fallback?.(payload, status)) {
            this.finish({ message: 'handed over to the HTTP+SSE transport' }, false);
            return;
          }
          if (status === 404) return this.finish(httpRefusal(this.url, response, text));
        }
        this.failRequests(requestIds, status, text);
        if (status === 404 && this.sessionId && !standalone)
          this.finish({ message: 'the server ended the session (HTTP 404)' });
        return;
      }
      if (type.includes('text/event-stream')) {
        await this.readStream(response, new Set(requestIds));
        return;
      }
      const text = await response.text();
      const body = type.includes('json') ? parseJson(text) : undefined;
      if (body === undefined) return this.finish(notMcp(this.url, type, text));
      this.deliver(body);
    } catch (error) {
      // Nothing answered at all (refused, no such host, TLS): every later request would fail alike.
      if (!stop.aborted) this.finish(unreachable(this.url, error));
    } finally {
      this.posts.delete(stop);
      if (abandon) signal!.removeEventListener('abort', abandon);
    }
  }

  /** Delivers an error body that answers `id`; false when the body is something else. */
  private deliverErrorBody(body: unknown, id: JsonRpcId | undefined): boolean {
    const c = classify(body);
    if (c.kind !== 'response' || id === undefined || c.message.id !== id || !('error' in c.message))
      return false;
    this.deliver(body);
    return true;
  }

  /** Reads an SSE answer to the end, resuming it when it breaks (resumable-stream.ts). */
  private readStream(response: HttpAnswer, awaiting: Set<JsonRpcId>, persistent = false): Promise<void> {
    // What the server asks on the stream of one request of ours, it asks on that request's behalf.
    const related = awaiting.size === 1 ? awaiting.values().next().value : undefined;
    const info = related === undefined ? undefined : { relatedRequestId: related };
    return readResumable(response, awaiting, persistent, {
      retry:
        this.options.reconnect ??
        fixedRetry(this.options.reconnectDelay ?? 1000, this.options.maxReconnects ?? 5),
      stopped: () => this.closing || this.closeReason !== undefined,
      track: (controller, on) =>
        on ? this.controllers.add(controller) : this.controllers.delete(controller),
      reconnect: async (resumeFrom, signal) =>
        this.requester.request(this.endpoint, {
          method: 'GET',
          headers: await this.withProof('GET', this.headers({ Accept: 'text/event-stream', ...resumeFrom })),
          signal,
        }),
      deliver: (message) => this.deliver(message, info),
      failed: (ids, why) => this.failRequests(ids, 0, why),
      maxEventSize: this.options.maxMessageSize,
    });
  }

  /** The GET stream for messages that belong to no request; a server without one answers 405. */
  private async openServerStream(): Promise<void> {
    if (this.streamOpened || this.options.openStream === false) return;
    this.streamOpened = true;
    const controller = new AbortController();
    this.controllers.add(controller);
    try {
      const response = await this.requester.request(this.endpoint, {
        method: 'GET',
        headers: await this.withProof('GET', this.headers({ Accept: 'text/event-stream' })),
        signal: controller.signal,
      });
      if (!response.ok) return response.skip();
      await this.readStream(response, new Set(), true);
    } catch {
      // No server stream: only responses to our own requests will arrive.
    } finally {
      this.controllers.delete(controller);
    }
  }

  private deliver(payload: unknown, info?: MessageInfo): void {
    this.handlers?.message(payload, info);
  }

  /** Turns an HTTP failure into an error response for each request, so no caller waits forever. */
  private failRequests(ids: JsonRpcId[], status: number, body: string): void {
    for (const id of ids) this.handlers?.message(failedRequest(id, status, body));
  }

  /** Ends the transport; `announce` false when another transport took over the same handlers. */
  private finish(reason: CloseReason, announce = true): void {
    if (this.closeReason) return;
    this.closeReason = reason;
    for (const controller of this.controllers) controller.abort();
    for (const stop of this.posts) stop.abort();
    this.requester.destroy();
    if (announce) this.handlers?.closed(reason);
  }
}

/** A body as JSON, or undefined when it is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
