// The client side of Streamable HTTP: each message is POSTed; the answer comes as JSON or as an SSE
// stream. The session id from the initialize response and the negotiated protocol version go on every
// later request. A GET stream carries what the server sends on its own. A stream that breaks before its
// responses arrived is resumed with Last-Event-ID after the server's `retry` delay.

import type { CloseReason } from '../../jsonrpc/errors.js';
import { classify, type JsonRpcId, type JsonRpcPayload } from '../../jsonrpc/messages.js';
import type { Transport, TransportHandlers } from '../transport.js';
import { SseParser } from './sse.js';

export interface HttpClientTransportOptions {
  /** Extra headers on every request (Authorization, say). */
  headers?: Record<string, string>;
  /** Open a GET stream for server-initiated messages after the handshake (true). */
  openStream?: boolean;
  /** Attempts to resume a broken stream before its requests fail (5), and the delay when the server gives none. */
  maxReconnects?: number;
  reconnectDelay?: number;
}

export class HttpClientTransport implements Transport {
  private handlers: TransportHandlers | undefined;
  private sessionId: string | undefined;
  private protocolVersion: string | undefined;
  private readonly outgoingMethods = new Map<JsonRpcId, string>();
  private readonly controllers = new Set<AbortController>();
  private closeReason: CloseReason | undefined;
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

  private async post(payload: JsonRpcPayload, requestIds: JsonRpcId[]): Promise<void> {
    const controller = new AbortController();
    this.controllers.add(controller);
    try {
      const response = await fetch(this.url, {
        method: 'POST',
        headers: this.headers({
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
        }),
        body: JSON.stringify(payload),
        signal: controller.signal,
      });
      const session = response.headers.get('mcp-session-id');
      if (session) this.sessionId = session;
      if (response.status === 202) return;
      const type = response.headers.get('content-type') ?? '';
      if (!response.ok) {
        const text = await response.text();
        this.failRequests(requestIds, response.status, text);
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
    }
  }

  /** Reads an SSE response; when it breaks before every awaited response came, resumes it. */
  private async readStream(response: Response, awaiting: Set<JsonRpcId>): Promise<void> {
    let lastEventId: string | undefined;
    let retry = this.options.reconnectDelay ?? 1000;
    let attempts = 0;
    let current: Response | undefined = response;
    while (current) {
      try {
        const parser = new SseParser();
        const decoder = new TextDecoder();
        for await (const chunk of current.body as unknown as AsyncIterable<Uint8Array>) {
          for (const event of parser.push(decoder.decode(chunk, { stream: true }))) {
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
      if (awaiting.size === 0 || this.closeReason || lastEventId === undefined) break;
      if (++attempts > (this.options.maxReconnects ?? 5)) break;
      await new Promise((resolve) => setTimeout(resolve, retry));
      current = await fetch(this.url, {
        method: 'GET',
        headers: this.headers({ Accept: 'text/event-stream', 'Last-Event-ID': lastEventId }),
      }).catch(() => undefined);
      if (current && !current.ok) current = undefined;
    }
    if (awaiting.size > 0 && !this.closeReason) {
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
      await this.readStream(response, new Set());
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
        this.outgoingMethods.get(c.message.id) === 'initialize'
      ) {
        const version = (c.message as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
        if (typeof version === 'string') this.protocolVersion = version;
      }
      if (c.kind === 'response' && c.message.id !== null) this.outgoingMethods.delete(c.message.id);
    }
    this.handlers?.message(payload);
  }

  /** Turns an HTTP failure into an error response for each request, so no caller waits forever. */
  private failRequests(ids: JsonRpcId[], status: number, body: string): void {
    let parsed: { error?: { code?: number; message?: string; data?: unknown } } | undefined;
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = undefined;
    }
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
