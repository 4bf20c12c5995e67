// The client side of the HTTP+SSE transport of revision 2024-11-05, for servers that never moved to
// Streamable HTTP: a GET opens one SSE stream that carries everything the server sends; its first event,
// `endpoint`, names the URL where every client message is POSTed (the answer comes on the stream, not on
// the POST). Messages sent before the endpoint is known wait for it. The revision has no resumption: a
// stream that ends closes the transport, and whoever supervises it (the host) connects again.

import type { CloseReason } from '../../jsonrpc/errors.js';
import { classify, type JsonRpcId, type JsonRpcPayload } from '../../jsonrpc/messages.js';
import type { Transport, TransportHandlers } from '../../jsonrpc/transport.js';
import { withKeys } from '../../jsonrpc/with-keys.js';
import { failedRequest, httpRefusal, unreachable } from './client-failures.js';
import { type HttpAnswer, HttpRequester } from './http-request.js';
import { SseParser } from './sse.js';

export interface LegacySseTransportOptions {
  /** Extra headers on every request (Authorization, say). */
  headers?: Record<string, string>;
}

export class LegacySseClientTransport implements Transport {
  private handlers: TransportHandlers | undefined;
  private endpoint: URL | undefined;
  private readonly queued: JsonRpcPayload[] = [];
  private readonly controller = new AbortController();
  private connecting = false;
  private closeReason: CloseReason | undefined;
  private readonly requester = new HttpRequester();

  constructor(
    readonly url: string | URL,
    private readonly options: LegacySseTransportOptions = {},
  ) {}

  start(handlers: TransportHandlers): void {
    this.handlers = handlers;
  }

  send(payload: JsonRpcPayload): void {
    if (this.closeReason) return;
    if (!this.endpoint) {
      this.queued.push(payload);
      this.connect();
      return;
    }
    void this.post(this.endpoint, payload);
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  async close(): Promise<void> {
    this.controller.abort();
    this.finish({ message: 'closed' });
  }

  private connect(): void {
    if (this.connecting) return;
    this.connecting = true;
    void this.readStream();
  }

  private async readStream(): Promise<void> {
    let response: HttpAnswer;
    try {
      response = await this.requester.request(new URL(this.url), {
        method: 'GET',
        headers: { ...this.options.headers, Accept: 'text/event-stream' },
        signal: this.controller.signal,
      });
    } catch (error) {
      if (!this.controller.signal.aborted) this.finish(unreachable(this.url, error));
      return;
    }
    if (!response.ok) {
      this.finish(httpRefusal(this.url, response, await response.text().catch(() => '')));
      return;
    }
    const type = response.headers.get('content-type') ?? '';
    if (!type.includes('text/event-stream')) {
      response.cancel();
      this.finish({
        message: `${String(this.url)} answered the SSE GET with ${type || 'no content type'}, not text/event-stream: it is not an HTTP+SSE MCP server`,
      });
      return;
    }
    const parser = new SseParser();
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body) {
        for (const event of parser.push(decoder.decode(chunk, { stream: true }))) this.event(event);
        if (this.closeReason) return;
      }
    } catch {
      // The connection broke: closed below like a stream the server ended.
    }
    this.finish({ message: `the server at ${String(this.url)} closed its SSE stream` });
  }

  private event(event: { event?: string; data: string }): void {
    if (event.event === 'endpoint') {
      try {
        this.endpoint = new URL(event.data.trim(), this.url);
      } catch {
        this.finish({ message: `the server's endpoint event names no URL: ${JSON.stringify(event.data)}` });
        return;
      }
      for (const payload of this.queued.splice(0)) void this.post(this.endpoint, payload);
      return;
    }
    if (event.event !== undefined && event.event !== 'message') return;
    if (event.data === '') return;
    let message: unknown;
    try {
      message = JSON.parse(event.data);
    } catch {
      this.handlers?.frameError({
        kind: 'parse',
        message: 'an SSE event is not one JSON-RPC message',
        excerpt: event.data.slice(0, 80),
      });
      return;
    }
    this.handlers?.message(message);
  }

  private async post(endpoint: URL, payload: JsonRpcPayload): Promise<void> {
    const requestIds: JsonRpcId[] = [];
    for (const item of Array.isArray(payload) ? payload : [payload]) {
      const c = classify(item);
      if (c.kind === 'request') requestIds.push(c.message.id);
    }
    try {
      const response = await this.requester.request(endpoint, {
        method: 'POST',
        headers: withKeys(this.options.headers, { 'Content-Type': 'application/json' }),
        body: JSON.stringify(payload),
        signal: this.controller.signal,
      });
      const text = await response.text();
      // The answer comes on the stream; the POST's own body is only an acknowledgement.
      if (response.ok) return;
      for (const id of requestIds) this.handlers?.message(failedRequest(id, response.status, text));
    } catch (error) {
      if (!this.controller.signal.aborted) this.finish(unreachable(endpoint, error));
    }
  }

  private finish(reason: CloseReason): void {
    if (this.closeReason) return;
    this.closeReason = reason;
    this.controller.abort();
    this.requester.destroy();
    this.handlers?.closed(reason);
  }
}
