// The server side of one Streamable HTTP session, as a Transport. A session has many HTTP streams: each
// POST that carries requests gets its own (a JSON body or an SSE stream), and one GET may hold a stream for
// messages that belong to no request. Every outgoing message goes to the stream of the request it belongs
// to; with SSE, it is also stored so a client that lost the connection can resume with Last-Event-ID.
//
// What an answer costs depends on what the client can still use (issue 21). A POST's SSE stream holds its
// head until the end of the turn (held-head.ts): a request answered within it goes out as one body with
// its length, unstored, since its client never had an event id to resume from. Writes run at once while
// nothing waits before them (a store or a state save that is asynchronous): a stream queues only from its
// first such wait. A stream written to the end can hardly need resuming: its events
// are kept for a grace period only (twice the retry hint: a client may have lost the end of a stream the
// server saw finish), for KEPT_FINISHED such streams at most, so an idle session soon keeps no events;
// those of streams that broke are kept, for MAX_KEPT_STREAMS at most. Fleet-only state is not allocated
// off a fleet.

import type { ServerResponse } from 'node:http';
import { monotonicNow } from '../../jsonrpc/clock.js';
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import type { CloseReason } from '../../jsonrpc/errors.js';
import { McpwireError } from '../../jsonrpc/local-errors.js';
import {
  classify,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcPayload,
} from '../../jsonrpc/messages.js';
import {
  hasStreamed,
  materializeStreamed,
  releaseStreamed,
  streamedPending,
} from '../../jsonrpc/streamed.js';
import type {
  MessageInfo,
  PersistedSession,
  SendOptions,
  SessionPersistence,
  Transport,
  TransportHandlers,
} from '../../jsonrpc/transport.js';
import { httpExactIds } from '../framing/exact-ids.js';
import { nodeCrypto } from '../platform/builtins.js';
import { Deadlines, type Due } from './deadlines.js';
import type { EventStore } from './event-store.js';
import {
  channels,
  type FleetMessage,
  fleetStreamId,
  parseFleetStreamId,
  type SessionFleet,
  type StreamMessage,
} from './fleet-channels.js';
import {
  endSse,
  type HeadHolder,
  type HeldStream,
  holdHead,
  holdMessage,
  releaseAtTurnEnd,
  takeHeld,
} from './held-head.js';
import { formatSseEvent, headOf, JSON_HEADERS, SSE_HEADERS } from './sse.js';
import { asJson, writeWholeBody } from './whole-body.js';

interface Stream extends HeldStream {
  id: string;
  /** Request ids this stream answers; it ends when all are answered. Empty for the GET stream. */
  pending: Set<JsonRpcId>;
  response: ServerResponse | undefined;
  mode: 'sse' | 'json';
  /** JSON mode: the responses gathered so far, and whether the POST body was a batch. */
  collected: JsonRpcMessage[];
  batch: boolean;
  /**
   * Writes in order: storing an event may be asynchronous, and a stream must not end before its last write.
   * IDLE until the first write is queued.
   */
  chain: Promise<void>;
  /**
   * JSON mode: the headers of the POST (Mcp-Session-Id), written with the body at the end. They were
   * dropped, so a JSON answer to initialize carried no session id and the session could not be used.
   */
  headers: Record<string, string>;
  /**
   * SSE mode: the status and headers are not written yet. The POST of the opening request waits for its
   * first message, so that a refused initialize is answered without the id of a session that ends at
   * once (the id went out with the stream's headers before the answer was known).
   */
  headless?: boolean;
  /** Mode 'either': the stream opens when this is due, unless its answer came first (then JSON). */
  undecided?: Due;
}

export interface SessionTransportOptions {
  sessionId: string;
  eventStore: EventStore | undefined;
  /** Answer POSTs with one JSON body instead of an SSE stream. */
  jsonResponse: boolean;
  /** Mode 'either': how long a POST's stream waits for its first message (HttpHandlerOptions.streamAfter). */
  streamAfter?: number;
  /** Milliseconds a client should wait before reconnecting, sent as the SSE `retry` field. */
  retryInterval: number | undefined;
  /** Told once the session has ended, whoever ended it, so the endpoint can forget it. */
  onFinished?: (session: HttpSessionTransport) => void;
  /** Set when several instances serve the session (a fleet): its state is kept in their shared store. */
  fleet?: SessionFleet;
  /** The protocol's state of the session when this transport is made (a fleet's record, or sessionless). */
  initialState?: Record<string, unknown>;
  /** A session of one POST (sessionless serving): it ends once that POST is answered. */
  oneShot?: boolean;
  /** Bytes that may wait on an SSE stream its client does not read before the stream is closed (8 MiB). */
  maxStreamBacklog?: number;
}

export class HttpSessionTransport implements Transport, HeadHolder {
  /**
   * An answer with streamed values (a big resource) is written as they are read when it goes out whole at
   * the end of its POST (whole-body.ts); on a stream that is already open, each event is stored for
   * resumption, so the value is read into a string first (writeEvent).
   */
  readonly splicing = true;
  private handlers: TransportHandlers | undefined;
  // The next two are one shared empty map, never written, while the session has no stream (idle): they
  // are made for its first stream and let go with its last (see openStream and finishIfDone), since an
  // idle session's heap counts (issue 21). Only openStream and trackRequests write them.
  private streams: Map<string, Stream> = NO_STREAMS;
  /** Which stream answers each request id in flight. */
  private requestStream: Map<JsonRpcId, string> = NO_REQUEST_STREAMS;
  private closeReason: CloseReason | undefined;
  /**
   * The id of the GET stream, in the event store too. It was the same 'standalone' in every session, so
   * with one store shared by all sessions, resuming a GET stream replayed other sessions' messages.
   */
  private readonly standaloneId: string;
  /** Every stream this session has stored events of and has not dropped (made on first use). */
  private storedStreams: Set<string> | undefined;
  /** The streams last written to the end, oldest first, whose events are still kept. */
  private recentlyFinished: Array<{ id: string; at: number }> | undefined;
  private purgeTimer: ReturnType<typeof setTimeout> | undefined;
  /** Numbers this session's streams (off a fleet): an id unique in the session's store, and cheap. */
  private streamCounter = 0;
  /** The request that opened the session, until it is answered: an error answer ends the session. */
  private opening: JsonRpcId | undefined;
  /** When the client last sent anything (for the endpoint's idle expiry), on performance.now()'s clock. */
  lastActivity = monotonicNow();
  readonly persistence: SessionPersistence | undefined;
  /** The last state save in a fleet: what is sent after it waits for it. */
  private saving: Promise<void> = SAVED;
  /** Fleet: requests this instance sent to the client, by the id they carry on the wire. */
  private sentRequests: Map<string, JsonRpcId> = NO_SENT_REQUESTS;
  private sentCounter = 0;
  /** Fleet: where messages for the GET stream go while another instance holds it. */
  private remoteStandalone: Stream | undefined;
  /** Fleet: what to undo when the session ends (subscriptions, resumed streams of other instances). */
  private cleanups: Set<() => void> = NO_CLEANUPS;

  constructor(readonly options: SessionTransportOptions) {
    this.standaloneId = `${options.sessionId}-standalone`;
    const { fleet, initialState, oneShot } = options;
    // Off a fleet nothing is ever added to these (only fleet code does): one empty pair for all sessions.
    if (fleet) this.persistence = new FleetPersistence(this, initialState);
    else if (oneShot) this.persistence = new FixedPersistence(initialState);
  }

  /** Fleet: stores the session's state and tells the session's copies on other instances. */
  saveState(state: Record<string, unknown>): void {
    const fleet = this.options.fleet!;
    const saving: Promise<void> = fleet.store
      .update(this.sessionId, state, fleet.ttlMs)
      // The copies of the session on other instances take it up at once (the one holding the
      // GET stream must know a subscription made elsewhere).
      .then(() =>
        this.publish(channels.fleet, { t: 'state', s: this.sessionId, i: fleet.bus.instanceId, state }),
      )
      // A store that failed leaves the other instances with the older state; the answer still goes.
      .catch(() => undefined)
      // Settled: an idle copy keeps no promise of its own.
      .then(() => {
        if (this.saving === saving) this.saving = SAVED;
      });
    this.saving = saving;
  }

  /** Fleet: something to undo when the session ends (the set is made for the first). */
  private cleanup(undo: () => void): void {
    if (this.cleanups === NO_CLEANUPS) this.cleanups = new Set();
    this.cleanups.add(undo);
  }

  /** Fleet: the protocol's session that keeps its state in the store. */
  private get owner(): PersistedSession | undefined {
    return this.persistence instanceof FleetPersistence ? this.persistence.owner : undefined;
  }

  /** Fleet: whether this instance holds the session's GET stream. */
  get holdsStandalone(): boolean {
    return this.streams.has(this.standaloneId);
  }

  /** Fleet: the session's state as another instance left it, read before this POST is served. */
  refresh(state: Record<string, unknown>): void {
    this.owner?.restore(state);
  }

  get sessionId(): string {
    return this.options.sessionId;
  }

  get closed(): boolean {
    return this.closeReason !== undefined;
  }

  /** Whether a request is in flight or the GET stream is open: such a session is not idle. */
  get busy(): boolean {
    return (
      this.requestStream.size > 0 ||
      this.cleanups.size > (this.unsubscribeStandalone ? 1 : 0) ||
      this.streams.get(this.standaloneId)?.response !== undefined
    );
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
  handlePost(
    body: unknown,
    response: ServerResponse,
    headers: Record<string, string>,
    mode: 'sse' | 'json' | 'either' = this.options.jsonResponse ? 'json' : 'sse',
    info?: MessageInfo,
  ): void {
    this.lastActivity = monotonicNow();
    let items = Array.isArray(body) ? body : [body];
    if (this.options.fleet) {
      items = items.filter((item) => this.keepHere(item));
      if (items.length === 0) {
        response.writeHead(202, headers).end();
        return;
      }
      body = Array.isArray(body) ? items : items[0];
    }
    // A loop, not flatMap: V8 runs flatMap generically, and this is every POST (issue 21).
    const requestIds: JsonRpcId[] = [];
    for (const item of items) {
      const c = classify(item);
      if (c.kind === 'request') requestIds.push(c.message.id);
    }
    if (requestIds.length === 0) {
      response.writeHead(202, headers).end();
      this.handlers?.message(body, info);
      if (this.options.oneShot) setImmediate(() => this.finish({ message: 'the POST was served' }));
      return;
    }
    // An id already in flight on this session is refused on this POST, before the connection sees it:
    // the connection's refusal carries the same id, so it was routed to the first request's stream,
    // which it ended, and that request's own result was then lost.
    let reused: JsonRpcId | undefined;
    for (const id of requestIds) {
      if (!this.requestStream.has(id)) continue;
      reused = id;
      break;
    }
    if (reused !== undefined) {
      response
        .writeHead(400, headOf(headers, JSON_HEADERS))
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
      id: this.options.fleet
        ? fleetStreamId(this.options.fleet.bus.instanceId, nodeCrypto().randomUUID(), requestIds)
        : // Unique in the session's store, and in a store shared by sessions (the session id is); as hard
          // to guess as the session id, which another client would need to resume it.
          `${this.options.sessionId}-${++this.streamCounter}`,
      pending: new Set(requestIds),
      response,
      mode: mode === 'json' ? 'json' : 'sse',
      collected: [],
      batch: Array.isArray(body),
      chain: IDLE,
      headers,
    };
    this.openStream(stream);
    if (this.requestStream === NO_REQUEST_STREAMS) this.requestStream = new Map();
    for (const id of requestIds) this.requestStream.set(id, stream.id);
    if (mode === 'either' && requestIds.length === 1 && !stream.batch) {
      stream.headless = true;
      stream.undecided = {
        at: monotonicNow() + (this.options.streamAfter ?? 0),
        fire: () => {
          stream.undecided = undefined;
          this.enqueue(stream, () =>
            stream.headless && !this.closeReason ? this.openSse(stream) : undefined,
          );
        },
      };
      undecidedStreams.add(stream.undecided);
    } else if (stream.mode === 'sse') {
      if (this.opening !== undefined && requestIds.includes(this.opening)) stream.headless = true;
      else this.openSse(stream, false);
    }
    this.handlers?.message(body, info);
    // Most requests were answered by now, their stream written whole. One still working opens at the
    // turn's end, and learns when its client goes away.
    if (stream.pending.size === 0) return;
    releaseAtTurnEnd(stream);
    response.on('close', () => {
      // The client went away: an SSE stream can be resumed later (unless its head was still held: the
      // client has no event id to resume from); a JSON answer is lost.
      if (stream.response === response) stream.response = undefined;
    });
  }

  /** A GET: the stream for messages that belong to no request, or the resumption of a lost stream. */
  async handleGet(
    response: ServerResponse,
    headers: Record<string, string>,
    lastEventId: string | undefined,
  ): Promise<void> {
    this.lastActivity = monotonicNow();
    const store = this.options.eventStore;
    if (lastEventId !== undefined && store) {
      let streamId = await store.streamOf(lastEventId);
      // A store may be shared by sessions (the endpoint's default is): a stream of another session is
      // none of this client's business, whatever id it names. A fleet's stream ids are unguessable.
      if (streamId !== undefined && !this.options.fleet && !streamId.startsWith(`${this.sessionId}-`)) {
        streamId = undefined;
      }
      const stream = streamId === undefined ? undefined : this.streams.get(streamId);
      const fleet = this.options.fleet;
      if (fleet && streamId !== undefined && !stream && streamId !== this.standaloneId) {
        const { instance } = parseFleetStreamId(streamId);
        if (instance !== fleet.bus.instanceId) {
          await this.resumeRemote(fleet, streamId, lastEventId, response, headers);
          return;
        }
      }
      if (fleet && streamId === this.standaloneId && !stream) {
        await this.holdStandalone(fleet, response, headers, lastEventId);
        return;
      }
      if (streamId !== undefined) {
        response.writeHead(200, headOf(headers, SSE_HEADERS));
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
        .writeHead(409, headOf(headers, JSON_HEADERS))
        .end(JSON.stringify(errorBody('Conflict: this session already has an open GET stream')));
      return;
    }
    if (this.options.fleet && !existing) {
      await this.holdStandalone(this.options.fleet, response, headers, undefined);
      return;
    }
    const stream = existing ?? getStream(this.standaloneId, undefined, headers);
    stream.response = response;
    this.openStream(stream);
    response.writeHead(200, headOf(headers, SSE_HEADERS));
    await this.prime(stream);
    response.on('close', () => {
      if (stream.response === response) stream.response = undefined;
    });
  }

  send(payload: JsonRpcPayload, options?: SendOptions): void {
    if (this.closeReason) {
      if (streamedPending()) releaseStreamed(payload);
      return;
    }
    const messages = Array.isArray(payload) ? payload : [payload];
    const first = messages[0];
    if (!first) return;
    const isResponse = !('method' in first);
    const key = isResponse ? (first as { id: JsonRpcId }).id : options?.relatedRequestId;
    const streamId =
      key === undefined || key === null
        ? this.standaloneId
        : (this.requestStream.get(key) ?? this.standaloneId);
    let stream = this.streams.get(streamId);
    let sending = messages;
    if (this.options.fleet) {
      sending = messages.map((message) => this.labelRequest(message));
      if (!stream && streamId === this.standaloneId) stream = this.standaloneElsewhere();
    }
    if (!stream) return; // No stream to carry a message that belongs to no request: the client did not open one.
    // A refused opening request (initialize answered with an error) leaves no session behind: its id is
    // not handed out in a JSON answer, and the session ends once the refusal is written.
    const refused = isResponse && key === this.opening && key !== undefined && 'error' in first;
    if (isResponse && key === this.opening) this.opening = undefined;
    if (refused) delete stream.headers['Mcp-Session-Id'];
    const target = stream;
    if (isResponse && !refused && this.answersAtOnce(target)) {
      // Nothing queued on this stream, and its answer goes as one body (JSON, or an SSE stream whose head
      // is still held): gathered and written now, not through the write chain.
      this.decide(target, true);
      for (const message of sending) {
        if (target.held === undefined) target.collected.push(message);
        else holdMessage(target, message);
        const id = (message as { id: JsonRpcId }).id;
        this.requestStream.delete(id);
        target.pending.delete(id);
      }
      if (this.requestStream.size === 0) this.requestStream = NO_REQUEST_STREAMS;
      this.finishIfDone(target);
      return;
    }
    for (const message of sending) this.enqueue(target, () => this.write(target, message));
    if (isResponse) {
      const ids = messages.map((message) => (message as { id: JsonRpcId }).id);
      for (const id of ids) this.requestStream.delete(id);
      if (this.requestStream.size === 0) this.requestStream = NO_REQUEST_STREAMS;
      // The ids leave `pending` in write order, not when sent: two responses sent in the same tick (each
      // request of a refused batch) ended the stream after the first write, and the second was lost.
      // Ending the session (a refusal, or a one-POST session in finishIfDone) waits for the turn after
      // send(): the connection that called it must not hear its own close from inside it.
      this.enqueue(
        target,
        () => {
          for (const id of ids) target.pending.delete(id);
          this.finishIfDone(target);
          if (refused) this.finish({ message: 'the request that opened the session was refused' });
        },
        refused || this.options.oneShot === true,
      );
    }
  }

  /**
   * Whether an answer can be written at once instead of through the stream's write chain: nothing is
   * queued on the stream, no state save must go first (a fleet), and it answers in JSON (or may still), or
   * on an SSE stream that still holds its head.
   */
  private answersAtOnce(stream: Stream): boolean {
    return (
      stream.chain === IDLE &&
      this.saving === SAVED &&
      !this.options.oneShot &&
      (stream.mode === 'json' || stream.undecided !== undefined || stream.held !== undefined)
    );
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  /**
   * The client cancelled the request: no answer will come. It no longer keeps the session busy (which
   * kept such a session from ever expiring). Its stream stays open until the client leaves it: ending
   * it without an answer would make a client that resumes streams come back for the answer forever.
   */
  unanswered(id: JsonRpcId): void {
    this.requestStream.delete(id);
  }

  async close(): Promise<void> {
    this.finish({ message: 'closed' });
  }

  /**
   * Fleet: this instance lets its copy of an idle session go. The session lives on in the shared store,
   * its streams stay resumable on any instance, and the next request for it here makes a new copy.
   */
  release(reason: CloseReason): void {
    this.finish(reason);
  }

  /** The client ended the session (DELETE) or the server is shutting down. */
  finish(reason: CloseReason): void {
    if (this.closeReason) return;
    this.closeReason = reason;
    clearTimeout(this.purgeTimer);
    this.recentlyFinished = undefined;
    const store = this.options.eventStore;
    for (const stream of this.streams.values()) endSse(stream);
    for (const cleanup of [...this.cleanups]) cleanup();
    this.cleanups.clear();
    // Nobody can resume a stream of an ended session: its events would only take up memory.
    for (const id of this.storedStreams ?? []) void store?.dropStream?.(id);
    this.storedStreams = undefined;
    this.streams.clear();
    this.handlers?.closed(reason);
    this.options.onFinished?.(this);
  }

  private openStream(stream: Stream): void {
    if (this.streams === NO_STREAMS) this.streams = new Map();
    this.streams.set(stream.id, stream);
  }

  /** Notes a stream that has events in the store; past MAX_KEPT_STREAMS, the oldest is forgotten. */
  private stored(streamId: string): void {
    // A fleet's events live in its shared store, each stream bounded and expiring there by itself, and
    // any instance may have written a session's streams: a copy that noted the ids of those it wrote
    // would hold every stream of a long session (and an idle copy would pay for the first one, ~0.9 KiB).
    if (this.options.fleet) return;
    this.storedStreams ??= new Set();
    const streams = this.storedStreams;
    if (streams.has(streamId)) return;
    streams.add(streamId);
    if (streams.size <= MAX_KEPT_STREAMS) return;
    for (const oldest of streams) {
      if (oldest === this.standaloneId || this.streams.has(oldest)) continue;
      this.dropStored(oldest);
      break;
    }
  }

  /** A stream written to the end: forgotten after the grace period, or past KEPT_FINISHED such streams. */
  private finished(streamId: string): void {
    if (this.closeReason) return;
    this.recentlyFinished ??= [];
    const recent = this.recentlyFinished;
    recent.push({ id: streamId, at: monotonicNow() });
    if (recent.length > KEPT_FINISHED) this.dropStored(recent.shift()!.id);
    // One timer per session at a time, not one per stream.
    this.purgeTimer ??= setTimeout(() => this.purgeFinished(), this.grace).unref();
  }

  private get grace(): number {
    return 2 * (this.options.retryInterval ?? 1000);
  }

  private purgeFinished(): void {
    this.purgeTimer = undefined;
    const recent = this.recentlyFinished;
    if (!recent || this.closeReason) return;
    const now = monotonicNow();
    while (recent.length > 0 && now - recent[0]!.at >= this.grace) this.dropStored(recent.shift()!.id);
    if (recent.length === 0) this.recentlyFinished = undefined;
    else this.purgeTimer = setTimeout(() => this.purgeFinished(), recent[0]!.at + this.grace - now).unref();
  }

  private dropStored(streamId: string): void {
    if (!this.storedStreams?.delete(streamId)) return;
    if (this.storedStreams.size === 0) this.storedStreams = undefined;
    const dropped = this.options.eventStore?.dropStream?.(streamId);
    if (dropped instanceof Promise) dropped.catch(() => undefined);
  }

  /**
   * Runs a step of the stream's writes in order: at once while nothing waits on the stream, queued behind
   * the last step that waited (an asynchronous store or save) otherwise. `later`: queued in any case, for
   * a step that must not run inside the send() that asked for it (one that ends the session).
   */
  private enqueue(stream: Stream, step: () => void | Promise<void>, later = false): void {
    if (stream.chain === IDLE && !later) {
      let waits: void | Promise<void>;
      try {
        waits = step();
      } catch {
        return; // A failed write (the client went away) must not stop the writes after it.
      }
      if (waits) stream.chain = waits.catch(ignore);
      return;
    }
    stream.chain = stream.chain.then(step).catch(ignore);
  }

  /**
   * Opens an SSE stream: its head is held until the turn ends (see openHeld), or until the caller asks
   * for that (`atTurnEnd` false: handlePost, once its request has had the chance to be answered).
   */
  private openSse(stream: Stream, atTurnEnd = true): void {
    stream.headless = false;
    if (!stream.response) return;
    holdHead(stream, this);
    if (atTurnEnd) releaseAtTurnEnd(stream);
  }

  /**
   * The turn ended with the stream still open: its head goes out, primed, with the messages it held,
   * stored as any others from here (after the stream's earlier writes, which may still wait on a store).
   */
  openHeld(stream: HeldStream): void {
    const open = stream as Stream;
    this.enqueue(open, () => {
      if (open.held === undefined) return; // Ended meanwhile, as one body.
      const held = takeHeld(open);
      const response = open.response;
      // A client gone before the head went out has no event id to resume from: nothing to store.
      if (!response) return;
      response.writeHead(200, headOf(open.headers, SSE_HEADERS));
      // Node keeps a head until the first write: a stream with nothing to write yet would look stalled.
      if (!this.options.eventStore && held.length === 0) response.flushHeaders();
      const primed = this.prime(open);
      if (primed) return primed.then(() => this.writeEvents(open, held, 0));
      return this.writeEvents(open, held, 0);
    });
  }

  /** Writes messages as events in order, each stored first (from `from`, waiting on a store that waits). */
  private writeEvents(stream: Stream, messages: JsonRpcMessage[], from: number): void | Promise<void> {
    for (let i = from; i < messages.length; i++) {
      const waits = this.writeEvent(stream, messages[i]!);
      if (waits) return waits.then(() => this.writeEvents(stream, messages, i + 1));
    }
  }

  /** An event with an id and no data, so that the client has an id to resume from before any message. */
  private prime(stream: Stream): void | Promise<void> {
    const store = this.options.eventStore;
    if (!store || !stream.response) return;
    this.stored(stream.id);
    // Without a store to keep it (Redis gone), there is nothing to resume from: no priming event.
    const stored = storeEvent(store, stream.id, undefined);
    const primeWith = (id: string | undefined) => {
      if (id !== undefined)
        stream.response?.write(formatSseEvent({ id, data: '', retry: this.options.retryInterval }));
    };
    if (stored instanceof Promise) return stored.then(primeWith);
    primeWith(stored);
  }

  private write(stream: Stream, message: JsonRpcMessage): void | Promise<void> {
    // An answer must not reach the client before the state it depends on is stored: the client's next
    // POST may land on another instance, which reads it.
    if (this.saving !== SAVED) return this.saving.then(() => this.writeSaved(stream, message));
    return this.writeSaved(stream, message);
  }

  /**
   * Mode 'either': the stream's first message decides it, before its deadline. An answer that came before
   * anything else goes as one JSON body (finishIfDone writes it); anything else opens the SSE stream.
   */
  private decide(stream: Stream, answered: boolean): void {
    if (!stream.undecided) return;
    undecidedStreams.delete(stream.undecided);
    stream.undecided = undefined;
    if (answered) stream.mode = 'json';
  }

  private writeSaved(stream: Stream, message: JsonRpcMessage): void | Promise<void> {
    this.decide(stream, !('method' in message));
    if (stream.mode === 'json') {
      stream.collected.push(message);
      return;
    }
    if (stream.headless) this.openSse(stream);
    if (holdMessage(stream, message)) return;
    return this.writeEvent(stream, message);
  }

  private writeEvent(stream: Stream, message: JsonRpcMessage): void | Promise<void> {
    // An event is stored whole (for resumption) and formatted whole: a streamed value is read first.
    if (streamedPending() && hasStreamed(message)) {
      return materializeStreamed(message).then(
        () => this.writeEvent(stream, message),
        // The answer goes all the same, as the error it became: its caller must not wait forever.
        (error: unknown) => {
          releaseStreamed(message);
          return this.writeEvent(
            stream,
            errorBody(
              `Internal error: a streamed value of the answer could not be read (${error instanceof Error ? error.message : String(error)})`,
              ErrorCode.InternalError,
              (message as { id: JsonRpcId }).id,
            ) as JsonRpcMessage,
          );
        },
      );
    }
    const store = this.options.eventStore;
    if (!store) return this.sendEvent(stream, undefined, message);
    this.stored(stream.id);
    // A store that failed (Redis gone) must not swallow the message: it goes without an id, which only
    // loses the client the chance to resume after it.
    const stored = storeEvent(store, stream.id, message);
    if (stored instanceof Promise) return stored.then((id) => this.sendEvent(stream, id, message));
    this.sendEvent(stream, stored, message);
  }

  private sendEvent(stream: Stream, id: string | undefined, message: JsonRpcMessage): void {
    if (stream.response) {
      // A client that stopped reading would have every message kept for it in memory: once more than the
      // limit waits (one large message goes whatever its size), its stream is closed instead (the close
      // handler detaches it), and the client resumes from the event store.
      const response = stream.response;
      if (response.writableLength > (this.options.maxStreamBacklog ?? 8 * 1024 * 1024)) response.destroy();
      else
        response.write(
          formatSseEvent({ id, event: 'message', data: httpExactIds.write(JSON.stringify(message)) }),
        );
    } else if (this.options.fleet && id !== undefined) {
      // The client may be reading this stream from another instance (resumed there, or the GET stream).
      this.publishStream(stream.id, { e: id, m: message });
    }
  }

  private finishIfDone(stream: Stream): void {
    if (stream.pending.size > 0 || stream.id === this.standaloneId) return;
    this.streams.delete(stream.id);
    if (this.streams.size === 0) this.streams = NO_STREAMS;
    const response = stream.response;
    if (!response) {
      if (this.options.fleet && stream.mode === 'sse') this.publishStream(stream.id, { end: true });
      // What was gathered for a client that went away is never written: its streamed values are closed.
      if (stream.mode === 'sse') endSse(stream);
      else if (streamedPending()) releaseStreamed(stream.collected);
      if (this.options.oneShot) this.finish({ message: 'the POST was served' });
      return;
    }
    if (stream.mode === 'json') {
      // Notifications related to these requests cannot travel in a JSON body; only responses do.
      const responses = stream.collected.filter((m) => !('method' in m));
      writeWholeBody(response, 200, stream.headers, JSON_HEADERS, [
        asJson(stream.batch ? responses : responses[0]),
      ]);
    } else {
      // Written to the end: the client has the whole stream and is unlikely to resume it, so its events
      // are kept for a while only. A stream whose client went away before (no response here) keeps them.
      if (this.storedStreams?.has(stream.id)) {
        response.once('finish', () => this.finished(stream.id));
      }
      endSse(stream);
    }
    if (this.options.oneShot) this.finish({ message: 'the POST was served' });
  }

  // ---- fleet: the session shared with other instances ----

  /**
   * Whether a message the client POSTed is for this instance. An answer to a request another instance
   * sent goes to it; a notification about a request running elsewhere (a cancellation) goes to every
   * instance, and the one running it takes it.
   */
  private keepHere(item: unknown): boolean {
    const fleet = this.options.fleet!;
    const c = classify(item);
    if (c.kind === 'response' && typeof c.message.id === 'string') {
      const original = this.sentRequests.get(c.message.id);
      if (original !== undefined) {
        this.sentRequests.delete(c.message.id);
        (item as { id: JsonRpcId }).id = original;
        return true;
      }
      const instance = c.message.id.split('~')[0]!;
      if (c.message.id.includes('~') && instance !== fleet.bus.instanceId) {
        this.publish(channels.instance(instance), { t: 'response', s: this.sessionId, m: c.message });
        return false;
      }
      return true;
    }
    if (c.kind === 'notification') {
      const about = fleet.concerns(item);
      if (about !== undefined && !this.requestStream.has(about)) {
        this.publish(channels.fleet, { t: 'forward', s: this.sessionId, id: about, m: item });
        return false;
      }
    }
    return true;
  }

  /** A message for this session from another instance (see FleetMessage). */
  fromFleet(message: FleetMessage): void {
    if (this.closeReason) return;
    if (message.t === 'response') {
      if (this.keepHere(message.m)) this.handlers?.message(message.m);
    } else if (message.t === 'forward') {
      if (this.requestStream.has(message.id)) this.handlers?.message(message.m);
    } else if (message.t === 'state') {
      if (message.i !== this.options.fleet?.bus.instanceId) this.refresh(message.state);
    } else if (message.t === 'home' && message.i !== this.options.fleet?.bus.instanceId) {
      // Another instance took the GET stream: what belongs to no request goes there now.
      const stream = this.streams.get(this.standaloneId);
      if (stream) {
        this.streams.delete(this.standaloneId);
        endSse(stream);
        this.unsubscribeStandalone?.();
        this.owner?.homeChanged();
      }
    }
  }

  /** A request to the client carries this instance's name in its id, so that any instance can route the answer. */
  private labelRequest(message: JsonRpcMessage): JsonRpcMessage {
    if (!('method' in message) || !('id' in message) || message.id === undefined) return message;
    const wire = `${this.options.fleet!.bus.instanceId}~${++this.sentCounter}`;
    if (this.sentRequests === NO_SENT_REQUESTS) this.sentRequests = new Map();
    this.sentRequests.set(wire, message.id as JsonRpcId);
    return { ...message, id: wire } as JsonRpcMessage;
  }

  /** The GET stream held by another instance (or by none yet): events are stored and published for it. */
  private standaloneElsewhere(): Stream {
    this.remoteStandalone ??= getStream(this.standaloneId, undefined, {});
    if (this.options.eventStore) this.stored(this.standaloneId);
    return this.remoteStandalone;
  }

  private unsubscribeStandalone: (() => void) | undefined;

  /** This instance takes the session's GET stream: its own messages and those other instances publish. */
  private async holdStandalone(
    fleet: SessionFleet,
    response: ServerResponse,
    headers: Record<string, string>,
    lastEventId: string | undefined,
  ): Promise<void> {
    const stream = getStream(this.standaloneId, response, headers);
    const live = await this.follow(fleet, this.standaloneId, response, () => {});
    this.unsubscribeStandalone?.();
    this.unsubscribeStandalone = () => {
      live.stop();
      this.unsubscribeStandalone = undefined;
    };
    this.cleanup(this.unsubscribeStandalone);
    this.openStream(stream);
    this.owner?.homeChanged();
    this.publish(channels.fleet, { t: 'home', s: this.sessionId, i: fleet.bus.instanceId });
    response.writeHead(200, headOf(headers, SSE_HEADERS));
    response.flushHeaders();
    if (lastEventId !== undefined) await live.replay(lastEventId);
    else await this.prime(stream);
    live.go();
    response.on('close', () => {
      if (stream.response === response) stream.response = undefined;
    });
  }

  /**
   * A POST stream of another instance, resumed here: what it stored is replayed, what it sends next is
   * followed, and if that instance is gone the requests it ran are answered with an error.
   */
  private async resumeRemote(
    fleet: SessionFleet,
    streamId: string,
    lastEventId: string,
    response: ServerResponse,
    headers: Record<string, string>,
  ): Promise<void> {
    const { instance, ids } = parseFleetStreamId(streamId);
    const owed = new Set((ids ?? []).map((id) => JSON.stringify(id)));
    let timer: ReturnType<typeof setInterval> | undefined;
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      clearInterval(timer);
      live.stop();
      this.cleanups.delete(end);
      response.end();
    };
    const live = await this.follow(fleet, streamId, response, (message) => {
      if (message === 'end') return end();
      if (!('method' in message)) owed.delete(JSON.stringify((message as { id: JsonRpcId }).id));
      if (ids && owed.size === 0) end();
    });
    this.cleanup(end);
    response.writeHead(200, headOf(headers, SSE_HEADERS));
    response.flushHeaders();
    await live.replay(lastEventId);
    live.go();
    if (done) return;
    const check = async () => {
      if (done || (await fleet.bus.isAlive(instance).catch(() => true))) return;
      // The instance running these requests is gone: their answers will never come.
      for (const id of owed) {
        response.write(
          formatSseEvent({
            event: 'message',
            data: JSON.stringify(
              errorBody(
                `The server instance that ran this request (${instance}) stopped before answering; its result is lost: send the request again`,
                ErrorCode.InternalError,
                JSON.parse(id) as JsonRpcId,
              ),
            ),
          }),
        );
      }
      end();
    };
    timer = setInterval(() => void check(), fleet.livenessInterval);
    timer.unref();
    response.on('close', end);
    await check();
  }

  /**
   * Follows a stream's channel: events published before `go` wait, then those the replay did not
   * carry are written. `seen` hears every message written (and 'end').
   */
  private async follow(
    fleet: SessionFleet,
    streamId: string,
    response: ServerResponse,
    seen: (message: JsonRpcMessage | 'end') => void,
  ): Promise<{ replay(after: string): Promise<void>; go(): void; stop(): void }> {
    const replayed = new Set<string>();
    let waiting: StreamMessage[] | undefined = [];
    const writeEvent = (id: string, message: JsonRpcMessage) => {
      response.write(
        formatSseEvent({ id, event: 'message', data: httpExactIds.write(JSON.stringify(message)) }),
      );
      seen(message);
    };
    const take = (message: StreamMessage) => {
      if ('end' in message) return seen('end');
      if (replayed.has(message.e)) return;
      writeEvent(message.e, message.m);
    };
    let unsubscribe: (() => Promise<void>) | undefined = await fleet.bus
      .subscribe(channels.stream(streamId), (raw) => {
        const message = JSON.parse(raw) as StreamMessage;
        if (waiting) waiting.push(message);
        else take(message);
      })
      .catch((error: Error) => {
        throw new McpwireError(
          'FLEET_UNAVAILABLE',
          `Service Unavailable: the fleet's bus cannot be reached (${error.message}); try again shortly`,
        );
      });
    const store = this.options.eventStore;
    return {
      replay: async (after) => {
        await store?.replayAfter(after, (id, message) => {
          replayed.add(id);
          writeEvent(id, message);
        });
      },
      go: () => {
        const queued = waiting ?? [];
        waiting = undefined;
        for (const message of queued) take(message);
      },
      stop: () => {
        void unsubscribe?.().catch(() => undefined);
        unsubscribe = undefined;
      },
    };
  }

  private publishStream(streamId: string, message: StreamMessage): void {
    void this.options.fleet?.bus.publish(channels.stream(streamId), JSON.stringify(message)).catch(() => {});
  }

  private publish(channel: string, message: FleetMessage): void {
    void this.options.fleet?.bus.publish(channel, JSON.stringify(message)).catch(() => {});
  }
}

/**
 * Stores an event; its id, or undefined if the store failed. An in-memory store answers at once, and then
 * so does this, without the promise and the turn that wrapping every answer took (two a POST).
 */
function storeEvent(
  store: EventStore,
  streamId: string,
  message: JsonRpcMessage | undefined,
): string | undefined | Promise<string | undefined> {
  try {
    const id = store.storeEvent(streamId, message);
    return typeof id === 'string' ? id : id.catch(() => undefined);
  } catch {
    return undefined;
  }
}

/**
 * Broken streams a session keeps the events of, for the client to resume; the oldest finished one is
 * forgotten past this (streams in flight and the GET stream are always kept).
 */
const MAX_KEPT_STREAMS = 100;
/** Streams written to the end whose events are kept anyway, in case the client lost the end of one. */
const KEPT_FINISHED = 16;
/** The POST streams of every session waiting to learn whether they answer in JSON (streamAfter). */
const undecidedStreams = new Deadlines();
const NO_SENT_REQUESTS: Map<string, JsonRpcId> = new Map();
const NO_STREAMS = new Map<string, Stream>();
const NO_REQUEST_STREAMS = new Map<JsonRpcId, string>();
/** Nothing being saved: one settled promise for all sessions. */
const SAVED = Promise.resolve();
/** The write chain of a stream nothing was queued on yet (see HttpSessionTransport.send). */
const IDLE: Promise<void> = Promise.resolve();
const NO_CLEANUPS: Set<() => void> = new Set();
const ignore = () => {};

/** The GET stream: SSE, answering no request. */
function getStream(
  id: string,
  response: ServerResponse | undefined,
  headers: Record<string, string>,
): Stream {
  return { id, pending: new Set(), response, mode: 'sse', collected: [], batch: false, chain: IDLE, headers };
}

export function errorBody(
  message: string,
  code: number = ErrorCode.InvalidRequest,
  id: JsonRpcId | null = null,
): unknown {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** A fleet's session: its state lives in the fleet's store, through the transport. */
class FleetPersistence implements SessionPersistence {
  owner: PersistedSession | undefined;
  constructor(
    private readonly transport: HttpSessionTransport,
    readonly initial: Record<string, unknown> | undefined,
  ) {}
  attach(owner: PersistedSession): void {
    this.owner = owner;
  }
  save(state: Record<string, unknown>): void {
    this.transport.saveState(state);
  }
  home(): boolean {
    return this.transport.holdsStandalone;
  }
}

/** A session of one POST (sessionless serving): its state is given and never stored. */
class FixedPersistence implements SessionPersistence {
  constructor(readonly initial: Record<string, unknown> | undefined) {}
  attach(): void {}
  save(): void {}
  home(): boolean {
    return false;
  }
}
