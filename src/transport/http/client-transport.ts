// The client side of Streamable HTTP: each message is POSTed; the answer comes as JSON or as an SSE
// stream. A request of the stateless revision (2026-07-28) carries its metadata headers and no session. The session id from the initialize response and the negotiated protocol version go on every
// later request. A GET stream carries what the server sends on its own. A stream that breaks before its
// responses arrived is resumed with Last-Event-ID after the server's `retry` delay.

import type { CloseReason } from '../../jsonrpc/errors.js';
import {
  classify,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcPayload,
} from '../../jsonrpc/messages.js';
import type { Transport, TransportHandlers } from '../transport.js';
import { type ParamHeader, paramHeaders, paramHeadersOf } from './param-headers.js';
import { requestMetadataHeaders, statelessVersionOf } from './request-metadata.js';
import { SseParser } from './sse.js';

export interface HttpClientTransportOptions {
  /** Extra headers on every request (Authorization, say). */
  headers?: Record<string, string>;
  /** Open a GET stream for server-initiated messages after the handshake (true). */
  openStream?: boolean;
  /** Attempts to resume a broken stream before its requests fail (5), and the delay when the server gives none. */
  maxReconnects?: number;
  reconnectDelay?: number;
  /** Told about tools left out of a stateless tools/list for invalid x-mcp-header marks. */
  onWarning?: (message: string) => void;
}

export class HttpClientTransport implements Transport {
  private handlers: TransportHandlers | undefined;
  private sessionId: string | undefined;
  private protocolVersion: string | undefined;
  private readonly outgoingMethods = new Map<JsonRpcId, string>();
  private readonly controllers = new Set<AbortController>();
  /** Stateless requests in flight, by id: aborting one's POST is how it is cancelled. */
  private readonly statelessRequests = new Map<JsonRpcId, AbortController>();
  /** Each listed tool's parameters that travel as Mcp-Param-* headers (from stateless tools/list). */
  private readonly toolParams = new Map<string, ParamHeader[]>();
  private privateIds = 0;
  private closeReason: CloseReason | undefined;
  /** Set as close() starts: no stream is resumed from then on. */
  private closing = false;
  private streamOpened = false;

  constructor(
    readonly url: string | URL,
    private readonly options: HttpClientTransportOptions = {},
  ) {}

  start(handlers: TransportHandlers): void {
    this.handlers = handlers;
  }

  send(payload: JsonRpcPayload): void {
    if (this.closeReason) return;
    if (!Array.isArray(payload) && this.sendStateless(payload)) return;
    const items = Array.isArray(payload) ? payload : [payload];
    const requestIds: JsonRpcId[] = [];
    for (const item of items) {
      const c = classify(item);
      if (c.kind === 'request') {
        requestIds.push(c.message.id);
        this.outgoingMethods.set(c.message.id, c.message.method);
      }
      if (c.kind === 'notification' && c.message.method === 'notifications/initialized')
        void this.openServerStream();
    }
    void this.post(payload, requestIds);
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  async close(): Promise<void> {
    if (this.closeReason) return;
    this.closing = true;
    for (const controller of this.controllers) controller.abort();
    if (this.sessionId) {
      await fetch(this.url, { method: 'DELETE', headers: this.headers() }).catch(() => {});
    }
    this.finish({ message: 'closed' });
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = { ...this.options.headers, ...extra };
    if (this.sessionId) headers['Mcp-Session-Id'] = this.sessionId;
    if (this.protocolVersion) headers['MCP-Protocol-Version'] = this.protocolVersion;
    return headers;
  }

  /**
   * The stateless revision (2026-07-28): a request that names its version in _meta goes on its own POST
   * with the metadata headers and no session; cancelling it is closing its answer, not a notification.
   * Returns false for anything else.
   */
  private sendStateless(message: JsonRpcMessage): boolean {
    const c = classify(message);
    if (c.kind === 'request' && statelessVersionOf(message) !== undefined) {
      this.outgoingMethods.set(c.message.id, c.message.method);
      const headers = requestMetadataHeaders(c.message);
      if (c.message.method === 'tools/call') {
        const params = c.message.params as { name?: unknown; arguments?: unknown } | undefined;
        const marked = typeof params?.name === 'string' ? this.toolParams.get(params.name) : undefined;
        if (marked) Object.assign(headers, paramHeaders(marked, params?.arguments));
      }
      void this.post(message, [c.message.id], headers);
      return true;
    }
    if (c.kind === 'notification' && c.message.method === 'notifications/cancelled') {
      const requestId = (c.message.params as { requestId?: JsonRpcId } | undefined)?.requestId;
      const inFlight = requestId === undefined ? undefined : this.statelessRequests.get(requestId);
      if (inFlight) {
        inFlight.abort();
        return true;
      }
    }
    return false;
  }

  private async post(
    payload: JsonRpcPayload,
    requestIds: JsonRpcId[],
    /** Set for a stateless request: its own metadata headers instead of the session's. */
    stateless?: Record<string, string>,
    retried = false,
  ): Promise<void> {
    const controller = new AbortController();
    this.controllers.add(controller);
    if (stateless) this.statelessRequests.set(requestIds[0]!, controller);
    try {
      const accept = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
      const response = await fetch(this.url, {
        method: 'POST',
        headers: stateless ? { ...this.options.headers, ...accept, ...stateless } : this.headers(accept),
        body: JSON.stringify(payload),
        signal: controller.signal,
      });
      const session = stateless ? null : response.headers.get('mcp-session-id');
      if (session) this.sessionId = session;
      if (response.status === 202) return;
      const type = response.headers.get('content-type') ?? '';
      if (!response.ok) {
        const text = await response.text();
        const body = parseJson(text);
        // A tools/call refused for its Mcp-Param-* headers: the tool's schema may be new or changed. As
        // the revision advises, list the tools again and retry once with the headers they call for.
        if (stateless && !retried && errorCodeOf(body) === -32020 && isToolCall(payload)) {
          await this.learnToolParams(payload);
          const marked = this.toolParams.get(payload.params.name);
          if (marked) {
            const headers = { ...stateless, ...paramHeaders(marked, payload.params.arguments) };
            await this.post(payload, requestIds, headers, true);
            return;
          }
        }
        // A stateless server answers some errors with 400 or 404 and the JSON-RPC error as the body.
        if (stateless && this.deliverErrorBody(body, requestIds[0]!)) return;
        this.failRequests(requestIds, response.status, text, body);
        if (response.status === 404 && this.sessionId)
          this.finish({ message: 'the server ended the session (HTTP 404)' });
        return;
      }
      if (type.includes('text/event-stream')) {
        await this.readStream(response, new Set(requestIds));
      } else {
        this.deliver(JSON.parse(await response.text()));
      }
    } catch (error) {
      if (!controller.signal.aborted) this.failRequests(requestIds, 0, (error as Error).message);
    } finally {
      this.controllers.delete(controller);
      if (stateless) this.statelessRequests.delete(requestIds[0]!);
    }
  }

  /** Lists the tools (every page) with the envelope of `call`, to learn their Mcp-Param-* parameters. */
  private async learnToolParams(call: { params: { _meta?: unknown } }): Promise<void> {
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const request = {
        jsonrpc: '2.0' as const,
        id: `mcpwire/tools-list/${++this.privateIds}`,
        method: 'tools/list',
        params: cursor === undefined ? { _meta: call.params._meta } : { cursor, _meta: call.params._meta },
      };
      const response = await fetch(this.url, {
        method: 'POST',
        headers: {
          ...this.options.headers,
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...requestMetadataHeaders(request),
        },
        body: JSON.stringify(request),
      }).catch(() => undefined);
      if (!response?.ok) return;
      const text = await response.text();
      // The answer is one JSON object, or an SSE stream whose last message is the response.
      const body = (response.headers.get('content-type') ?? '').includes('text/event-stream')
        ? new SseParser()
            .push(`${text}\n\n`)
            .map((event) => (event.data === '' ? undefined : (JSON.parse(event.data) as unknown)))
            .find((message) => (message as { id?: unknown } | undefined)?.id === request.id)
        : (JSON.parse(text) as unknown);
      const result = (body as { result?: { tools?: unknown; nextCursor?: unknown } } | undefined)?.result;
      if (!result) return;
      this.readToolParams({ result });
      if (typeof result.nextCursor !== 'string') return;
      cursor = result.nextCursor;
    }
  }

  /** Delivers an error body that answers `id`; false when the body is something else. */
  private deliverErrorBody(body: unknown, id: JsonRpcId): boolean {
    const c = classify(body);
    if (c.kind !== 'response' || c.message.id !== id || !('error' in c.message)) return false;
    this.deliver(body);
    return true;
  }

  /**
   * Reads an SSE response; when it breaks before every awaited response came, resumes it. The GET stream
   * (`persistent`) awaits no response and is resumed whenever it breaks, until the transport closes.
   */
  private async readStream(response: Response, awaiting: Set<JsonRpcId>, persistent = false): Promise<void> {
    let lastEventId: string | undefined;
    let retry = this.options.reconnectDelay ?? 1000;
    let attempts = 0;
    let current: Response | undefined = response;
    let controller: AbortController | undefined;
    while (current) {
      let progressed = false;
      try {
        const parser = new SseParser();
        const decoder = new TextDecoder();
        for await (const chunk of current.body as unknown as AsyncIterable<Uint8Array>) {
          for (const event of parser.push(decoder.decode(chunk, { stream: true }))) {
            progressed = true;
            if (event.id !== undefined) lastEventId = event.id;
            if (event.retry !== undefined) retry = event.retry;
            if (event.data === '') continue;
            const message = JSON.parse(event.data) as unknown;
            const c = classify(message);
            if (c.kind === 'response' && c.message.id !== null) awaiting.delete(c.message.id);
            this.deliver(message);
          }
        }
      } catch {
        // A broken connection: resumed below if anything is still awaited.
      }
      if (controller) this.controllers.delete(controller);
      current = undefined;
      if (this.closing || this.closeReason) break;
      if (!persistent && (awaiting.size === 0 || lastEventId === undefined)) break;
      // maxReconnects counts attempts in a row that brought nothing: a server that ends the stream after
      // each event (polling, as 2025-11-25 allows) was followed for maxReconnects events only.
      if (progressed) attempts = 0;
      // A reconnect that fails (a broken connection, a 5xx) is tried again: it gave up after the first.
      // The reconnect is aborted by close(): it was not, so close() left a resumed stream open.
      while (!current && !this.closing && ++attempts <= (this.options.maxReconnects ?? 5)) {
        controller = new AbortController();
        this.controllers.add(controller);
        await sleep(retry, controller.signal);
        if (this.closing) break;
        // The GET stream without an event id yet is opened afresh; with one, resumed from there.
        const resumeFrom: Record<string, string> =
          lastEventId === undefined ? {} : { 'Last-Event-ID': lastEventId };
        const answer = await fetch(this.url, {
          method: 'GET',
          headers: this.headers({ Accept: 'text/event-stream', ...resumeFrom }),
          signal: controller.signal,
        }).catch(() => undefined);
        if (answer?.ok) {
          current = answer;
          break;
        }
        this.controllers.delete(controller);
        await answer?.body?.cancel().catch(() => {});
        // A refusal (404: the session is gone; 405, 400) will not change by trying again.
        if (answer && answer.status < 500 && answer.status !== 429) break;
      }
    }
    if (controller) this.controllers.delete(controller);
    if (awaiting.size > 0 && !this.closeReason && !this.closing) {
      this.failRequests([...awaiting], 0, 'the response stream ended before the response arrived');
    }
  }

  /** The GET stream for messages that belong to no request; a server without one answers 405. */
  private async openServerStream(): Promise<void> {
    if (this.streamOpened || this.options.openStream === false) return;
    this.streamOpened = true;
    const controller = new AbortController();
    this.controllers.add(controller);
    try {
      const response = await fetch(this.url, {
        method: 'GET',
        headers: this.headers({ Accept: 'text/event-stream' }),
        signal: controller.signal,
      });
      if (!response.ok) return;
      await this.readStream(response, new Set(), true);
    } catch {
      // No server stream: only responses to our own requests will arrive.
    } finally {
      this.controllers.delete(controller);
    }
  }

  private deliver(payload: unknown): void {
    const items = Array.isArray(payload) ? payload : [payload];
    for (const item of items) {
      const c = classify(item);
      if (
        c.kind === 'response' &&
        c.message.id !== null &&
        this.statelessRequests.has(c.message.id) &&
        this.outgoingMethods.get(c.message.id) === 'tools/list'
      ) {
        this.readToolParams(c.message as { result?: { tools?: unknown } });
      }
      if (
        c.kind === 'response' &&
        c.message.id !== null &&
        this.outgoingMethods.get(c.message.id) === 'initialize'
      ) {
        const version = (c.message as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
        if (typeof version === 'string') this.protocolVersion = version;
      }
      if (c.kind === 'response' && c.message.id !== null) this.outgoingMethods.delete(c.message.id);
    }
    this.handlers?.message(payload);
  }

  /**
   * Remembers each tool's Mcp-Param-* parameters, and leaves out of the list a tool whose x-mcp-header
   * marks are invalid: the revision says a client on this transport must not offer it.
   */
  private readToolParams(response: { result?: { tools?: unknown } }): void {
    const tools = response.result?.tools;
    if (!Array.isArray(tools)) return;
    response.result!.tools = tools.filter((tool: { name?: unknown; inputSchema?: unknown }) => {
      if (typeof tool?.name !== 'string') return true;
      const read = paramHeadersOf(tool.inputSchema);
      if ('error' in read) {
        this.toolParams.delete(tool.name);
        this.options.onWarning?.(`tool "${tool.name}" left out: ${read.error}`);
        return false;
      }
      if (read.headers.length > 0) this.toolParams.set(tool.name, read.headers);
      else this.toolParams.delete(tool.name);
      return true;
    });
  }

  /** Turns an HTTP failure into an error response for each request, so no caller waits forever. */
  private failRequests(ids: JsonRpcId[], status: number, body: string, json = parseJson(body)): void {
    const parsed = json as { error?: { code?: number; message?: string; data?: unknown } } | undefined;
    for (const id of ids) {
      this.outgoingMethods.delete(id);
      const error = parsed?.error;
      this.handlers?.message({
        jsonrpc: '2.0',
        id,
        error: {
          code: typeof error?.code === 'number' ? error.code : -32603,
          message: status
            ? `HTTP ${status}: ${error?.message ?? body.slice(0, 200)}`
            : `request failed: ${body}`,
          ...(error?.data === undefined ? {} : { data: error.data }),
        },
      });
    }
  }

  private finish(reason: CloseReason): void {
    if (this.closeReason) return;
    this.closeReason = reason;
    this.handlers?.closed(reason);
  }
}

/** Waits `ms`, or less if `signal` is aborted first. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}

/** A body as JSON, or undefined when it is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function errorCodeOf(body: unknown): unknown {
  return (body as { error?: { code?: unknown } } | null | undefined)?.error?.code;
}

function isToolCall(
  payload: JsonRpcPayload,
): payload is JsonRpcMessage & { params: { name: string; arguments?: unknown; _meta?: unknown } } {
  const c = classify(payload);
  if (c.kind !== 'request' || c.message.method !== 'tools/call') return false;
  return typeof (c.message.params as { name?: unknown } | undefined)?.name === 'string';
}
