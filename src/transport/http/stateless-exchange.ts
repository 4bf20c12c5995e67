// One request of the stateless revision (2026-07-28) over Streamable HTTP, as a Transport of its own: no
// session, no GET stream, no resumption. The request goes up once; what comes down for it is written to
// its POST's answer: a JSON body when the response comes first (most requests), an SSE stream when a
// notification related to it comes first (progress, logging, a subscriptions/listen stream). The client
// closing the answer is the cancellation of the request (basic/transports/streamable-http#cancellation).

import type { ServerResponse } from 'node:http';
import type { CloseReason } from '../../jsonrpc/errors.js';
import type { JsonRpcId, JsonRpcPayload } from '../../jsonrpc/messages.js';
import type { MessageInfo, SendOptions, Transport, TransportHandlers } from '../../jsonrpc/transport.js';
import { httpExactIds } from '../framing/exact-ids.js';
import { formatSseEvent, headOf, JSON_HEADERS, SSE_HEADERS } from './sse.js';
import { asJson, asSseEvent, endWithBody, writeWholeBody } from './whole-body.js';

export class StatelessExchangeTransport implements Transport {
  /** A response with streamed values is written as they are read (spliced-body.ts). */
  readonly splicing = true;
  private handlers: TransportHandlers | undefined;
  private streaming = false;
  private closeReason: CloseReason | undefined;

  constructor(
    private readonly request: unknown,
    private readonly requestId: JsonRpcId,
    private readonly response: ServerResponse,
    /** Whether the client accepts text/event-stream; if not, notifications for the request are dropped. */
    private readonly acceptsSse: boolean,
    /** The HTTP status of the answer (the binding's: some errors are 400 or 404 in this revision). */
    private readonly statusOf: (payload: JsonRpcPayload) => number,
    /** Who sent the request, when the endpoint authenticated it. */
    private readonly info?: MessageInfo,
  ) {}

  start(handlers: TransportHandlers): void {
    this.handlers = handlers;
    handlers.message(this.request, this.info);
    // Most requests are answered within that call; one still running learns when its client goes away
    // (a listener on every answer cost each request a closure and an event).
    if (this.closeReason) return;
    const response = this.response;
    response.on('close', () => {
      if (!response.writableFinished) this.finish({ message: 'the client closed the response stream' });
    });
  }

  send(payload: JsonRpcPayload, options?: SendOptions): void {
    if (this.closeReason || Array.isArray(payload)) return;
    const isResponse = !('method' in payload);
    if (isResponse) {
      if ((payload as { id?: unknown }).id !== this.requestId) return;
      // A streamed value (a big resource) is written as it is read (whole-body.ts).
      if (this.streaming) endWithBody(this.response, [asSseEvent(payload)]);
      else writeWholeBody(this.response, this.statusOf(payload), NO_HEADERS, JSON_HEADERS, [asJson(payload)]);
      this.finish({ message: 'the request was answered' });
      return;
    }
    // Only what relates to this request may go on its stream, and never a request of the server's own:
    // this revision asks the client through input_required results instead.
    if ('id' in payload || options?.relatedRequestId !== this.requestId || !this.acceptsSse) return;
    if (!this.streaming) {
      this.streaming = true;
      this.response.writeHead(200, STREAM_HEADERS);
    }
    this.response.write(
      formatSseEvent({ event: 'message', data: httpExactIds.write(JSON.stringify(payload)) }),
    );
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  async close(): Promise<void> {
    if (!this.response.writableEnded) this.response.end();
    this.finish({ message: 'closed' });
  }

  /** Closing aborts the handler if it still runs, and releases the session the server made for it. */
  private finish(reason: CloseReason): void {
    if (this.closeReason) return;
    this.closeReason = reason;
    this.handlers?.closed(reason);
  }
}

/** An exchange's answer carries no headers of its own. */
const NO_HEADERS: Readonly<Record<string, string>> = {};
/** The head of an exchange's stream: proxies such as nginx would otherwise hold the events back. */
const STREAM_HEADERS = headOf(SSE_HEADERS, { 'X-Accel-Buffering': 'no' });
