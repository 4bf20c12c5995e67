// The server side of one Streamable HTTP session, as a Transport. A session has many HTTP streams: each
// POST that carries requests gets its own (a JSON body or an SSE stream), and one GET may hold a stream for
// messages that belong to no request. Every outgoing message goes to the stream of the request it belongs
// to; with SSE, it is also stored so a client that lost the connection can resume with Last-Event-ID.

import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import type { CloseReason } from '../../jsonrpc/errors.js';
import {
  classify,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcPayload,
} from '../../jsonrpc/messages.js';
import type { MessageInfo, SendOptions, Transport, TransportHandlers } from '../../jsonrpc/transport.js';
import { httpExactIds } from '../framing/exact-ids.js';
import type { EventStore } from './event-store.js';
import { formatSseEvent } from './sse.js';

interface Stream {
  id: string;
  /** Request ids this stream answers; it ends when all are answered. Empty for the GET stream. */
  pending: Set<JsonRpcId>;
  response: ServerResponse | undefined;
  mode: 'sse' | 'json';
  /** JSON mode: the responses gathered so far, and whether the POST body was a batch. */
  collected: JsonRpcMessage[];
  batch: boolean;
  /** Writes in order: storing an event may be asynchronous, and a stream must not end before its last write. */
  chain: Promise<void>;
  /**
   * JSON mode: the headers of the POST (Mcp-Session-Id), written with the body at the end. They were
   * dropped, so a JSON answer to initialize carried no session id and the session could not be used.
   */
  headers: Record<string, string>;
}

export interface SessionTransportOptions {
  sessionId: string;
  eventStore: EventStore | undefined;
  /** Answer POSTs with one JSON body instead of an SSE stream. */
  jsonResponse: boolean;
  /** Milliseconds a client should wait before reconnecting, sent as the SSE `retry` field. */
  retryInterval: number | undefined;
  /** Told once the session has ended, whoever ended it, so the endpoint can forget it. */
  onFinished?: (session: HttpSessionTransport) => void;
}

export class HttpSessionTransport implements Transport {
  private handlers: TransportHandlers | undefined;
  private readonly streams = new Map<string, Stream>();
  /** Which stream answers each request id in flight. */
  private readonly requestStream = new Map<JsonRpcId, string>();
  private closeReason: CloseReason | undefined;
  /**
   * The id of the GET stream, in the event store too. It was the same 'standalone' in every session, so
   * with one store shared by all sessions, resuming a GET stream replayed other sessions' messages.
   */
  private readonly standaloneId: string;
  /** Every stream this session has stored events of, finished ones too. */
  private readonly storedStreams = new Set<string>();
  /** The request that opened the session, until it is answered: an error answer ends the session. */
  private opening: JsonRpcId | undefined;
  /** When the client last sent anything (for the endpoint's idle expiry), on performance.now(). */
  lastActivity = performance.now();

  constructor(readonly options: SessionTransportOptions) {
    this.standaloneId = `${options.sessionId}-standalone`;
  }

  get sessionId(): string {
    return this.options.sessionId;
  }

  get closed(): boolean {
    return this.closeReason !== undefined;
  }

  /** Whether a request is in flight or the GET stream is open: such a session is not idle. */
  get busy(): boolean {
    return this.requestStream.size > 0 || this.streams.get(this.standaloneId)?.response !== undefined;
  }

  /** The request that opens the session: if it is refused, the session ends once the refusal is written. */
  openedBy(id: JsonRpcId): void {
    this.opening = id;
  }

  start(handlers: TransportHandlers): void {
    this.handlers = handlers;
  }

  /**
   * A POST body: notifications and responses are accepted with 202; requests open a stream. `mode`
   * overrides the configured answer format, for a client that accepts only one of them.
   */
  async handlePost(
    body: unknown,
    response: ServerResponse,
    headers: Record<string, string>,
    mode: 'sse' | 'json' = this.options.jsonResponse ? 'json' : 'sse',
    info?: MessageInfo,
  ): Promise<void> {
    this.lastActivity = performance.now();
    const items = Array.isArray(body) ? body : [body];
    const requestIds = items.flatMap((item) => {
      const c = classify(item);
      return c.kind === 'request' ? [c.message.id] : [];
    });
    if (requestIds.length === 0) {
      response.writeHead(202, headers).end();
      this.handlers?.message(body, info);
      return;
    }
    // An id already in flight on this session is refused on this POST, before the connection sees it:
    // the connection's refusal carries the same id, so it was routed to the first request's stream,
    // which it ended, and that request's own result was then lost.
    const reused = requestIds.find((id) => this.requestStream.has(id));
    if (reused !== undefined) {
      response
        .writeHead(400, { ...headers, 'Content-Type': 'application/json' })
        .end(
          JSON.stringify(
            errorBody(
              `Invalid Request: id ${JSON.stringify(reused)} is already in use by a request in flight on this session`,
              ErrorCode.InvalidRequest,
              Array.isArray(body) ? null : reused,
            ),
          ),
        );
      return;
    }
    const stream: Stream = {
      id: randomUUID(),
      pending: new Set(requestIds),
      response,
      mode,
      collected: [],
      batch: Array.isArray(body),
      chain: Promise.resolve(),
      headers,
    };
    this.streams.set(stream.id, stream);
    for (const id of requestIds) this.requestStream.set(id, stream.id);
    if (stream.mode === 'sse') {
      response.writeHead(200, {
        ...headers,
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-cache',
      });
      await this.prime(stream);
    }
    response.on('close', () => {
      // The client went away: an SSE stream can be resumed later; a JSON answer is lost.
      if (stream.response === response) stream.response = undefined;
    });
    this.handlers?.message(body, info);
  }

  /** A GET: the stream for messages that belong to no request, or the resumption of a lost stream. */
  async handleGet(
    response: ServerResponse,
    headers: Record<string, string>,
    lastEventId: string | undefined,
  ): Promise<void> {
    this.lastActivity = performance.now();
    const store = this.options.eventStore;
    if (lastEventId !== undefined && store) {
      const streamId = await store.streamOf(lastEventId);
      const stream = streamId === undefined ? undefined : this.streams.get(streamId);
      if (streamId !== undefined) {
        response.writeHead(200, {
          ...headers,
          'Content-Type': 'text/event-stream',
          'Cache-Control': 'no-cache',
        });
        // Node holds the headers until the first write: with nothing to replay, the client's GET got no
        // answer at all until the server next sent a message on the stream.
        response.flushHeaders();
        await store.replayAfter(lastEventId, (eventId, message) =>
          response.write(
            formatSseEvent({
              id: eventId,
              event: 'message',
              data: httpExactIds.write(JSON.stringify(message)),
            }),
          ),
        );
        if (stream) {
          stream.response = response;
          response.on('close', () => {
            if (stream.response === response) stream.response = undefined;
          });
          this.enqueue(stream, () => this.finishIfDone(stream));
        } else {
          response.end();
        }
        return;
      }
    }
    const existing = this.streams.get(this.standaloneId);
    if (existing?.response) {
      response
        .writeHead(409, { ...headers, 'Content-Type': 'application/json' })
        .end(JSON.stringify(errorBody('Conflict: this session already has an open GET stream')));
      return;
    }
    const stream: Stream = existing ?? {
      id: this.standaloneId,
      pending: new Set(),
      response: undefined,
      mode: 'sse',
      collected: [],
      batch: false,
      chain: Promise.resolve(),
      headers,
    };
    stream.response = response;
    this.streams.set(this.standaloneId, stream);
    response.writeHead(200, { ...headers, 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    await this.prime(stream);
    response.on('close', () => {
      if (stream.response === response) stream.response = undefined;
    });
  }

  send(payload: JsonRpcPayload, options?: SendOptions): void {
    if (this.closeReason) return;
    const messages = Array.isArray(payload) ? payload : [payload];
    const first = messages[0];
    if (!first) return;
    const isResponse = !('method' in first);
    const key = isResponse ? (first as { id: JsonRpcId }).id : options?.relatedRequestId;
    const streamId =
      key === undefined || key === null
        ? this.standaloneId
        : (this.requestStream.get(key) ?? this.standaloneId);
    const stream = this.streams.get(streamId);
    if (!stream) return; // No stream to carry a message that belongs to no request: the client did not open one.
    // A refused opening request (initialize answered with an error) leaves no session behind: its id is
    // not handed out in a JSON answer, and the session ends once the refusal is written.
    const refused = isResponse && key === this.opening && key !== undefined && 'error' in first;
    if (isResponse && key === this.opening) this.opening = undefined;
    if (refused) delete stream.headers['Mcp-Session-Id'];
    for (const message of messages) this.enqueue(stream, () => this.write(stream, message));
    if (isResponse) {
      const ids = messages.map((message) => (message as { id: JsonRpcId }).id);
      for (const id of ids) this.requestStream.delete(id);
      // The ids leave `pending` in write order, not when sent: two responses sent in the same tick (each
      // request of a refused batch) ended the stream after the first write, and the second was lost.
      this.enqueue(stream, () => {
        for (const id of ids) stream.pending.delete(id);
        this.finishIfDone(stream);
        if (refused) this.finish({ message: 'the request that opened the session was refused' });
      });
    }
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  async close(): Promise<void> {
    this.finish({ message: 'closed' });
  }

  /** The client ended the session (DELETE) or the server is shutting down. */
  finish(reason: CloseReason): void {
    if (this.closeReason) return;
    this.closeReason = reason;
    const store = this.options.eventStore;
    for (const stream of this.streams.values()) stream.response?.end();
    // Nobody can resume a stream of an ended session: its events would only take up memory.
    for (const id of this.storedStreams) void store?.dropStream?.(id);
    this.storedStreams.clear();
    this.streams.clear();
    this.handlers?.closed(reason);
    this.options.onFinished?.(this);
  }

  private enqueue(stream: Stream, step: () => void | Promise<void>): void {
    stream.chain = stream.chain.then(step).catch(() => {
      // A failed write (the client went away) must not stop the writes after it.
    });
  }

  /** An event with an id and no data, so that the client has an id to resume from before any message. */
  private async prime(stream: Stream): Promise<void> {
    const store = this.options.eventStore;
    if (!store || !stream.response) return;
    this.storedStreams.add(stream.id);
    const id = await store.storeEvent(stream.id, undefined);
    stream.response.write(formatSseEvent({ id, data: '', retry: this.options.retryInterval }));
  }

  private async write(stream: Stream, message: JsonRpcMessage): Promise<void> {
    if (stream.mode === 'json') {
      stream.collected.push(message);
      return;
    }
    const store = this.options.eventStore;
    if (store) this.storedStreams.add(stream.id);
    const id = store ? await store.storeEvent(stream.id, message) : undefined;
    stream.response?.write(
      formatSseEvent({ id, event: 'message', data: httpExactIds.write(JSON.stringify(message)) }),
    );
  }

  private finishIfDone(stream: Stream): void {
    if (stream.pending.size > 0 || stream.id === this.standaloneId) return;
    this.streams.delete(stream.id);
    const response = stream.response;
    if (!response) return;
    if (stream.mode === 'json') {
      // Notifications related to these requests cannot travel in a JSON body; only responses do.
      const responses = stream.collected.filter((m) => !('method' in m));
      const body = stream.batch ? responses : responses[0];
      response
        .writeHead(200, { ...stream.headers, 'Content-Type': 'application/json' })
        .end(httpExactIds.write(JSON.stringify(body)));
    } else {
      response.end();
    }
  }
}

export function errorBody(
  message: string,
  code: number = ErrorCode.InvalidRequest,
  id: JsonRpcId | null = null,
): unknown {
  return { jsonrpc: '2.0', id, error: { code, message } };
}
