// A symmetric JSON-RPC 2.0 connection: both ends send and handle requests and notifications.
// It owns ids, the map of pending requests, timeouts, cancellation, progress routing and every error
// response. It knows the transport interface and nothing about bytes.

import { CANCELLED_NOTIFICATION, type CancellationStrategy, notifyCancellation } from './cancellation.js';
import { DeadlineTimer } from './deadline-timer.js';
import { ErrorCode } from './error-codes.js';
import {
  type CloseReason,
  ConnectionClosedError,
  JsonRpcError,
  RequestCancelledError,
  RequestTimeoutError,
} from './errors.js';
import { MessageTooLargeError } from './local-errors.js';
import {
  classify,
  isErrorResponse,
  type JsonRpcErrorResponse,
  type JsonRpcId,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from './messages.js';
import { materializeStreamed, releaseStreamed, streamedPending } from './streamed.js';
import type {
  AuthInfo,
  FrameError,
  MessageInfo,
  SendOptions,
  Transport,
  TransportHandlers,
} from './transport.js';
import { withKeys } from './with-keys.js';

/** MCP's name for progress, the other notification every connection understands besides cancellation. */
export const PROGRESS_NOTIFICATION = 'notifications/progress';

type ProgressToken = string | number;

export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * An incoming request's cancellation without an AbortSignal, for code that only passes it on to a request
 * of its own (a proxy): making the request's AbortSignal and listening on it was some 5% of a proxied
 * call's CPU (issue 19). Listeners are called with the reason once the request is aborted.
 */
export interface AbortHook {
  readonly aborted: boolean;
  readonly abortReason: unknown;
  addAbortListener(listener: (reason: unknown) => void): void;
  removeAbortListener(listener: (reason: unknown) => void): void;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** In place of `signal`: the request is cancelled when this aborts (see AbortHook). */
  abortHook?: AbortHook;
  /** Milliseconds without a response (or, with `resetTimeoutOnProgress`, without progress). */
  timeout?: number;
  /** Restart the timeout whenever the peer reports progress for this request. */
  resetTimeoutOnProgress?: boolean;
  /** Milliseconds after which the request fails whatever progress it reports. */
  maxTotalTimeout?: number;
  /** Called for each `notifications/progress` that carries this request's progress token. */
  onProgress?: (progress: Progress) => void;
  /** The incoming request this one is sent on behalf of (see SendOptions). */
  relatedRequestId?: JsonRpcId;
  /** What the transport is told with this request: headers, whether it stands alone (see SendOptions). */
  transport?: Omit<SendOptions, 'relatedRequestId' | 'signal'>;
  /** How this request is cancelled, when not the connection's way (ConnectionOptions.cancellation). */
  cancellation?: CancellationStrategy;
  /**
   * Anything the caller recognises this request by: a request the peer makes on its behalf (one that
   * came on this request's own HTTP stream) has it as `relatedTag` in its context.
   */
  tag?: unknown;
}

export interface RequestContext {
  readonly id: JsonRpcId;
  readonly method: string;
  /** Aborted when the peer cancels the request or the connection closes. */
  readonly signal: AbortSignal;
  /** The token the peer asked progress for, if any. */
  readonly progressToken: ProgressToken | undefined;
  /** Sends progress for this request; does nothing without a token or after the response. */
  sendProgress(progress: Progress): void;
  /** The verified caller, when the transport authenticated the message (see MessageInfo). */
  readonly auth: AuthInfo | undefined;
  /** The `tag` of our own request this one was made on behalf of, when the transport knows it. */
  readonly relatedTag?: unknown;
  /** The request's cancellation without `signal`'s AbortSignal (see AbortHook). */
  readonly abortHook?: AbortHook;
}

export type RequestHandler = (params: unknown, context: RequestContext) => unknown;
export type NotificationHandler = (params: unknown) => void;

/** Something that went wrong that no response can carry. The connection goes on. */
export interface ConnectionProblem {
  kind:
    | 'unknown-response'
    | 'invalid-message'
    | 'parse-error'
    | 'oversize'
    | 'framing'
    | 'handler-error'
    | 'notification-error'
    | 'peer-error';
  message: string;
  detail?: unknown;
}

/** Returns why batches are refused here, or undefined to accept them. */
export type BatchPolicy = () => string | undefined;

export interface ConnectionOptions {
  /** Default idle timeout for outgoing requests in milliseconds (60 000). 0 disables it. */
  timeout?: number;
  /** Default for `RequestOptions.resetTimeoutOnProgress` (false). */
  resetTimeoutOnProgress?: boolean;
  /** Default for `RequestOptions.maxTotalTimeout` (none). */
  maxTotalTimeout?: number;
  /** Told about everything that goes wrong but cannot be answered on the wire. */
  onProblem?: (problem: ConnectionProblem) => void;
  /** Whether incoming JSON-RPC batches are accepted (they are unless this says why not). */
  batchPolicy?: BatchPolicy;
  /** How an abandoned outgoing request is cancelled (a notifications/cancelled to the peer). */
  cancellation?: CancellationStrategy;
}

interface PendingRequest {
  method: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
  onProgress: ((progress: Progress) => void) | undefined;
  progressToken: ProgressToken | undefined;
  idleTimeout: number;
  totalTimeout: number;
  resetOnProgress: boolean;
  /** When the request times out for want of an answer (or progress), on the deadline timer's clock. */
  idleAt: number;
  /** When it times out whatever happens. Both are Infinity when there is no such limit. */
  totalAt: number;
  signal: AbortSignal | undefined;
  abortHook: AbortHook | undefined;
  onAbort: ((reason?: unknown) => void) | undefined;
  /** What it was sent with, and how to cancel it. */
  sendOptions: SendOptions | undefined;
  cancellation: CancellationStrategy;
  tag: unknown;
}

/**
 * An incoming request in flight. Its AbortController is made only when someone reads the handler's
 * `signal` or the request must be aborted: most handlers never look at it, and creating one per request
 * was the largest single cost of answering a request.
 */
class IncomingRequest implements RequestContext, AbortHook {
  private controller: AbortController | undefined;
  private abortListeners: Array<(reason: unknown) => void> | undefined;
  /** Set when the peer cancelled it: its response is then never sent. */
  cancelled = false;
  answered = false;
  /** The batch it came in, whose one answer carries its response. */
  batch: BatchCollector | undefined = undefined;

  constructor(
    readonly id: JsonRpcId,
    readonly method: string,
    readonly progressToken: ProgressToken | undefined,
    private readonly connection: Connection,
    readonly auth: AuthInfo | undefined,
    readonly relatedTag: unknown,
  ) {}

  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    const first = !this.aborted;
    this.controller ??= new AbortController();
    this.controller.abort(reason);
    const listeners = this.abortListeners;
    this.abortListeners = undefined;
    if (first && listeners) for (const listener of listeners) listener(reason);
  }

  get abortHook(): AbortHook {
    return this;
  }

  get aborted(): boolean {
    return this.controller?.signal.aborted ?? false;
  }

  get abortReason(): unknown {
    return this.controller?.signal.reason;
  }

  addAbortListener(listener: (reason: unknown) => void): void {
    if (this.abortListeners) this.abortListeners.push(listener);
    else this.abortListeners = [listener];
  }

  removeAbortListener(listener: (reason: unknown) => void): void {
    const listeners = this.abortListeners;
    if (!listeners) return;
    const at = listeners.indexOf(listener);
    if (at !== -1) listeners.splice(at, 1);
    if (listeners.length === 0) this.abortListeners = undefined;
  }

  sendProgress(progress: Progress): void {
    if (this.answered || this.progressToken === undefined || this.connection.closed) return;
    this.connection.notify(
      PROGRESS_NOTIFICATION,
      { progressToken: this.progressToken, ...progress },
      { relatedRequestId: this.id },
    );
  }
}

const DEFAULT_TIMEOUT = 60_000;

const NO_PENDING = new Map<JsonRpcId, PendingRequest>();
const NO_INCOMING = new Map<JsonRpcId, IncomingRequest>();
const NO_REQUEST_HANDLERS = new Map<string, RequestHandler>();
const NO_NOTIFICATION_HANDLERS = new Map<string, NotificationHandler>();

/** How answers to bytes that were no message are sent: best effort (see SendOptions.droppable). */
const DROPPABLE: SendOptions = Object.freeze({ droppable: true });

export class Connection {
  // Both start as one shared empty map, never written, until a handler is registered by name: a server
  // session routes everything through the fallbacks, and each map costs ~200 bytes a session (issue 21).
  private requestHandlers: Map<string, RequestHandler> = NO_REQUEST_HANDLERS;
  private notificationHandlers: Map<string, NotificationHandler> = NO_NOTIFICATION_HANDLERS;
  private requestFallback: RequestHandler | undefined;
  private notificationFallback: ((method: string, params: unknown) => void) | undefined;
  /**
   * Requests sent and not answered. One shared empty map, never written, until the first request: many
   * connections (a server's HTTP sessions) never send one, and each map costs ~200 bytes (issue 21).
   */
  private pending: Map<JsonRpcId, PendingRequest> = NO_PENDING;
  /**
   * Requests received and not answered: one shared empty map, never written, whenever there are none, so
   * an idle HTTP session keeps no map of its own (~240 bytes, issue 18); a new one costs a request ~50 ns.
   */
  private incoming: Map<JsonRpcId, IncomingRequest> = NO_INCOMING;
  // Made on first use: a pushed-to array keeps room for 17, ~150 bytes on every idle HTTP session.
  private closeListeners: Array<(reason: CloseReason) => void> | undefined;
  private idleWaiters: Array<() => void> | undefined;
  /** The timer of sent requests' deadlines, made with the first request sent (see `pending`). */
  private deadlineTimer: DeadlineTimer | undefined;
  private get deadlines(): DeadlineTimer {
    this.deadlineTimer ??= new DeadlineTimer((now) => this.expire(now));
    return this.deadlineTimer;
  }
  /** While the transport holds its messages (see TransportHandlers.held): how many holds, since when. */
  private hold: { count: number; since: number } | undefined;
  private nextId = 1;
  private started = false;
  private closeReason: CloseReason | undefined;
  private inputEnded = false;

  constructor(
    private readonly transport: Transport,
    private readonly options: ConnectionOptions = {},
  ) {}

  // ---- registration ----

  onRequest(method: string, handler: RequestHandler): void {
    if (this.requestHandlers === NO_REQUEST_HANDLERS) this.requestHandlers = new Map();
    this.requestHandlers.set(method, handler);
  }

  onNotification(method: string, handler: NotificationHandler): void {
    if (this.notificationHandlers === NO_NOTIFICATION_HANDLERS) this.notificationHandlers = new Map();
    this.notificationHandlers.set(method, handler);
  }

  /** Handles requests for methods that have no handler of their own (otherwise: -32601). */
  onOtherRequest(handler: RequestHandler | undefined): void {
    this.requestFallback = handler;
  }

  onOtherNotification(handler: ((method: string, params: unknown) => void) | undefined): void {
    this.notificationFallback = handler;
  }

  onClose(listener: (reason: CloseReason) => void): void {
    if (this.closeReason) listener(this.closeReason);
    else {
      // A literal of one: `[]` then push keeps room for 17 (~130 bytes more on every idle HTTP session).
      if (this.closeListeners) this.closeListeners.push(listener);
      else this.closeListeners = [listener];
    }
  }

  get closed(): CloseReason | undefined {
    return this.closeReason;
  }

  /** Number of incoming requests whose handlers are still running. */
  get requestsInFlight(): number {
    return this.incoming.size;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    // A literal of constant keys, not `{ connection: this, ...Connection.handlers }`: a spread that adds
    // keys takes a slow path in Node 20's V8 (about 1 µs), and a 2026-07-28 request starts a connection.
    // Typed with every key of the shared handlers required: one added there and not here fails to compile.
    const shared = Connection.handlers;
    const handlers: TransportHandlers & { connection: Connection } & Required<typeof shared> = {
      connection: this,
      message: shared.message,
      frameError: shared.frameError,
      inputEnded: shared.inputEnded,
      held: shared.held,
      closed: shared.closed,
    };
    this.transport.start(handlers);
  }

  /**
   * What the transport calls: functions shared by every connection, reaching it through `this`, rather
   * than four closures per connection, since every idle HTTP session keeps its handlers (some 250 bytes a
   * session, issue 18). They are own properties of the object handed over, with the connection beside
   * them, so a wrapping transport that spreads the handlers (`{ ...handlers, message }`) keeps working.
   * Inside Connection's body, so they reach its private receivers.
   */
  private static readonly handlers = {
    message(this: { connection: Connection }, payload: unknown, info?: MessageInfo): void {
      this.connection.receive(payload, info);
    },
    frameError(this: { connection: Connection }, error: FrameError): void {
      this.connection.receiveFrameError(error);
    },
    inputEnded(this: { connection: Connection }): void {
      this.connection.peerInputEnded();
    },
    held(this: { connection: Connection }, holding: boolean): void {
      this.connection.transportHeld(holding);
    },
    closed(this: { connection: Connection }, reason: CloseReason): void {
      this.connection.transportClosed(reason);
    },
  };

  // ---- sending ----

  request<T = unknown>(method: string, params?: unknown, options: RequestOptions = {}): Promise<T> {
    if (this.closeReason) return Promise.reject(new ConnectionClosedError(method, this.closeReason));
    if (this.inputEnded) {
      return Promise.reject(
        new ConnectionClosedError(method, { message: 'the peer closed its side of the connection' }),
      );
    }
    const { signal, abortHook } = options;
    if (signal?.aborted) return Promise.reject(new RequestCancelledError(method, signal.reason));
    if (abortHook?.aborted) return Promise.reject(new RequestCancelledError(method, abortHook.abortReason));

    const id = this.nextId++;
    let progressToken: ProgressToken | undefined;
    let sentParams = params;
    // Positional (array) params have no place for _meta: such a request cannot ask for progress.
    if (options.onProgress && !Array.isArray(params)) {
      progressToken = id;
      sentParams = withProgressToken(params, progressToken);
    }
    const message: JsonRpcRequest =
      sentParams === undefined
        ? { jsonrpc: '2.0', id, method }
        : { jsonrpc: '2.0', id, method, params: sentParams };

    const idleTimeout = options.timeout ?? this.options.timeout ?? DEFAULT_TIMEOUT;
    const totalTimeout = options.maxTotalTimeout ?? this.options.maxTotalTimeout ?? 0;
    let idleAt = Number.POSITIVE_INFINITY;
    let totalAt = Number.POSITIVE_INFINITY;
    if (idleTimeout > 0 || totalTimeout > 0) {
      const now = this.deadlines.now();
      if (idleTimeout > 0) idleAt = this.idleFrom(now) + idleTimeout;
      if (totalTimeout > 0) totalAt = now + totalTimeout;
    }

    const cancellation = options.cancellation ?? this.options.cancellation ?? notifyCancellation;
    let sendOptions =
      options.transport === undefined
        ? related(options.relatedRequestId)
        : withKeys(options.transport, { relatedRequestId: options.relatedRequestId });
    if (cancellation.attach) sendOptions = cancellation.attach(sendOptions);

    return new Promise<T>((resolve, reject) => {
      const entry: PendingRequest = {
        method,
        resolve: resolve as (value: unknown) => void,
        reject,
        onProgress: options.onProgress,
        progressToken,
        idleTimeout,
        totalTimeout,
        resetOnProgress: options.resetTimeoutOnProgress ?? this.options.resetTimeoutOnProgress ?? false,
        idleAt,
        totalAt,
        signal,
        abortHook: signal ? undefined : abortHook,
        onAbort: undefined,
        sendOptions,
        cancellation,
        tag: options.tag,
      };
      if (this.pending === NO_PENDING) this.pending = new Map();
      this.pending.set(id, entry);
      this.deadlines.ensure(Math.min(idleAt, totalAt));
      if (signal || abortHook) {
        const cancel = (reason: unknown) => {
          if (!this.settle(id)) return;
          this.sendCancel(id, entry, reason instanceof Error ? reason.message : 'aborted by the caller');
          reject(new RequestCancelledError(method, reason));
        };
        if (signal) {
          entry.onAbort = () => cancel(signal.reason);
          signal.addEventListener('abort', entry.onAbort, { once: true });
        } else if (abortHook) {
          entry.onAbort = cancel;
          abortHook.addAbortListener(cancel);
        }
      }
      try {
        this.transport.send(message, sendOptions);
      } catch (error) {
        // Nothing went out (params that are not JSON, say): no timer may later cancel it at the peer.
        this.settle(id);
        reject(error instanceof Error ? error : new Error(describeThrown(error)));
      }
    });
  }

  notify(method: string, params?: unknown, options: { relatedRequestId?: JsonRpcId } = {}): void {
    if (this.closeReason) return;
    const message: JsonRpcNotification =
      params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
    this.transport.send(message, related(options.relatedRequestId));
  }

  /**
   * Waits for the incoming requests in flight to be answered, flushes, and closes the transport.
   * Pending outgoing requests are rejected.
   */
  async close(): Promise<void> {
    await this.whenIdle();
    await this.transport.close();
  }

  /**
   * Cancels every request in flight, each the way it would be cancelled alone (notifications/cancelled,
   * or closing its exchange), and rejects it: what a client does before it closes because its user gave
   * up (a signal to the command line), so that the server stops the work instead of finishing it unread.
   */
  cancelAll(reason: string): void {
    for (const [id, entry] of [...this.pending]) {
      this.settle(id);
      this.sendCancel(id, entry, reason);
      entry.reject(new RequestCancelledError(entry.method, new Error(reason)));
    }
  }

  /** Resolves when no incoming request is being handled. */
  whenIdle(): Promise<void> {
    if (this.incoming.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.idleWaiters ??= [];
      this.idleWaiters.push(resolve);
    });
  }

  // ---- receiving ----

  private receive(payload: unknown, info: MessageInfo | undefined): void {
    if (Array.isArray(payload)) {
      this.receiveBatch(payload, info);
      return;
    }
    this.receiveOne(payload, undefined, info);
  }

  /** Handles one message; when it belongs to a batch, its response goes to `batch` instead of the wire. */
  private receiveOne(value: unknown, batch: BatchCollector | undefined, info: MessageInfo | undefined): void {
    const classified = classify(value);
    switch (classified.kind) {
      case 'request':
        this.handleRequest(classified.message, batch, info);
        return;
      case 'notification':
        this.handleNotification(classified.message);
        return;
      case 'response':
        this.handleResponse(classified.message);
        return;
      case 'invalid': {
        // A malformed response has nobody to answer; everything else gets -32600.
        this.problem('invalid-message', `invalid JSON-RPC message: ${classified.reason}`, value);
        if (looksLikeResponse(value)) return;
        const response = errorResponse(
          classified.id,
          ErrorCode.InvalidRequest,
          `Invalid Request: ${classified.reason}`,
        );
        if (batch) batch.add(response);
        else this.transport.send(response);
      }
    }
  }

  private receiveBatch(items: unknown[], info: MessageInfo | undefined): void {
    if (items.length === 0) {
      this.transport.send(errorResponse(null, ErrorCode.InvalidRequest, 'Invalid Request: empty batch'));
      return;
    }
    const refusal = this.options.batchPolicy?.();
    if (refusal !== undefined) {
      // Answer every request of the batch on its own, so no caller waits for a response that never comes.
      let answered = false;
      for (const item of items) {
        const classified = classify(item);
        if (classified.kind === 'request') {
          this.transport.send(errorResponse(classified.message.id, ErrorCode.InvalidRequest, refusal));
          answered = true;
        }
      }
      if (!answered) this.transport.send(errorResponse(null, ErrorCode.InvalidRequest, refusal));
      this.problem('invalid-message', refusal);
      return;
    }
    const batch = new BatchCollector((responses) => this.sendAnswer(responses));
    for (const item of items) this.receiveOne(item, batch, info);
    batch.seal();
  }

  private receiveFrameError(error: FrameError): void {
    switch (error.kind) {
      case 'parse':
        this.problem('parse-error', error.message, error.excerpt);
        this.transport.send(errorResponse(null, ErrorCode.ParseError, error.message), DROPPABLE);
        return;
      case 'framing':
        // Bytes that are no frame are answered like bytes that are no JSON: the peer learns at once that
        // something it sent was lost, instead of waiting for an answer that never comes.
        this.problem('framing', error.message, error.excerpt);
        this.transport.send(
          errorResponse(null, ErrorCode.ParseError, `Parse error: ${error.message}`),
          DROPPABLE,
        );
        return;
      case 'oversize': {
        this.problem('oversize', error.message, { size: error.size, limit: error.limit, id: error.id });
        if (error.id === null) {
          // No id could be read from its first bytes (none there, or not JSON): still answered, with id
          // null, unless it was a response, which nothing answers.
          if (error.role !== 'response') {
            this.transport.send(errorResponse(null, ErrorCode.InvalidRequest, error.message));
          }
          return;
        }
        const pending = error.role !== 'request' ? this.pending.get(error.id) : undefined;
        if (pending) {
          this.settle(error.id);
          pending.reject(new JsonRpcError(ErrorCode.InternalError, error.message));
        } else if (error.role !== 'response') {
          this.transport.send(errorResponse(error.id, ErrorCode.InvalidRequest, error.message));
        }
      }
    }
  }

  private handleRequest(
    message: JsonRpcRequest,
    batch: BatchCollector | undefined,
    info: MessageInfo | undefined,
  ): void {
    const { id, method } = message;
    if (this.incoming.has(id)) {
      // Two live requests with one id cannot be told apart by their responses; refuse the second.
      const response = errorResponse(
        id,
        ErrorCode.InvalidRequest,
        `Invalid Request: id ${JSON.stringify(id)} is already in use by a request in flight`,
      );
      if (batch) batch.add(response);
      else this.transport.send(response);
      return;
    }
    const handler = this.requestHandlers.get(method) ?? this.requestFallback;
    if (!handler) {
      const response = errorResponse(id, ErrorCode.MethodNotFound, `Method not found: ${method}`);
      if (batch) batch.add(response);
      else this.transport.send(response);
      return;
    }
    const related = info?.relatedRequestId;
    const state = new IncomingRequest(
      id,
      method,
      readProgressToken(message.params),
      this,
      info?.auth,
      related === undefined ? undefined : this.pending.get(related)?.tag,
    );
    if (this.incoming === NO_INCOMING) this.incoming = new Map();
    this.incoming.set(id, state);
    if (batch) {
      state.batch = batch;
      batch.expect();
    }
    let result: unknown;
    try {
      result = handler(message.params, state);
    } catch (error) {
      this.finish(state, this.errorFromHandler(method, id, error));
      return;
    }
    if (isPromiseLike(result)) {
      // A thenable that is not a promise is adopted by one, which settles once and turns a then() that
      // throws into a rejection; a native promise is taken as it is (Promise.resolve returns it).
      Promise.resolve(result).then(
        (value) => this.succeed(state, value),
        (error) => this.finish(state, this.errorFromHandler(method, id, error)),
      );
    } else {
      this.succeed(state, result);
    }
  }

  /**
   * Answers with a handler's result. Streamed values in it (jsonrpc/streamed.ts) are read into strings
   * first when the transport cannot write them as they are read; while none exists, one check.
   */
  private succeed(state: IncomingRequest, value: unknown): void {
    if (!streamedPending() || this.transport.splicing) {
      this.finish(state, successResponse(state.id, value));
      return;
    }
    materializeStreamed(value).then(
      () => this.finish(state, successResponse(state.id, value)),
      (error) => this.finish(state, this.errorFromHandler(state.method, state.id, error)),
    );
  }

  /**
   * A request's end: its answer goes out (or into its batch) unless it was cancelled or the connection
   * closed. A method, not a closure per request: the hot path of a call allocates what it must only.
   */
  private finish(state: IncomingRequest, response: JsonRpcResponse): void {
    const id = state.id;
    state.answered = true;
    if (this.incoming.get(id) === state) this.incoming.delete(id);
    const silent = state.cancelled || this.closeReason !== undefined;
    if (silent && streamedPending()) releaseStreamed(response);
    if (state.batch) state.batch.settle(silent ? undefined : response);
    else if (!silent) this.sendAnswer(response);
    if (state.cancelled && this.closeReason === undefined) this.transport.unanswered?.(id);
    if (this.incoming.size === 0) {
      this.incoming = NO_INCOMING;
      this.notifyIdle();
    }
  }

  private errorFromHandler(method: string, id: JsonRpcId, error: unknown): JsonRpcErrorResponse {
    if (error instanceof JsonRpcError) return { jsonrpc: '2.0', id, error: error.toJSON() };
    this.problem('handler-error', `the handler of "${method}" threw`, error);
    return errorResponse(id, ErrorCode.InternalError, `Internal error: ${describeThrown(error)}`);
  }

  /**
   * Sends a handler's response, or a batch of them. A result that JSON cannot carry (a BigInt, a cycle)
   * throws in the transport; each such response is then replaced by a -32603 error and the rest goes out,
   * so no request goes unanswered and nothing throws out of here.
   */
  private sendAnswer(payload: JsonRpcResponse | JsonRpcResponse[]): void {
    try {
      this.transport.send(payload);
      return;
    } catch (error) {
      this.problem(
        error instanceof MessageTooLargeError ? 'oversize' : 'handler-error',
        `a response could not be sent: ${error instanceof Error ? error.message : describeThrown(error)}`,
        error,
      );
    }
    // What can go wrong is a value that is not JSON (a BigInt, say) or an answer over the transport's
    // size limit. Either way each response that cannot go is replaced by an error for its id, so that no
    // caller waits for an answer that never comes; a batch keeps its other answers.
    let answers = (Array.isArray(payload) ? payload : [payload]).map((response) => {
      try {
        JSON.stringify(response);
        return response;
      } catch (cause) {
        return unsendable(response, cause);
      }
    });
    for (let attempt = 0; attempt <= answers.length; attempt++) {
      try {
        this.transport.send(Array.isArray(payload) ? answers : answers[0]!);
        return;
      } catch (error) {
        if (!(error instanceof MessageTooLargeError)) {
          this.problem('handler-error', 'an error response could not be sent either', error);
          return;
        }
        // The largest answer goes first; one error per round until the rest fits.
        const sizes = answers.map((r) => ('error' in r ? 0 : JSON.stringify(r).length));
        const largest = sizes.indexOf(Math.max(...sizes));
        if (sizes[largest] === 0) return;
        answers = answers.map((r, i) =>
          i === largest
            ? errorResponse(
                r.id,
                ErrorCode.InternalError,
                `Internal error: the result is too large to send: ${error.message}`,
              )
            : r,
        );
      }
    }
  }

  private handleNotification(message: JsonRpcNotification): void {
    const { method, params } = message;
    if (method === CANCELLED_NOTIFICATION) this.peerCancelled(params);
    else if (method === PROGRESS_NOTIFICATION && this.routeProgress(params)) return;
    const handler = this.notificationHandlers.get(method);
    try {
      const result: unknown = handler ? handler(params) : this.notificationFallback?.(method, params);
      if (isPromiseLike(result)) {
        result.then(undefined, (error: unknown) =>
          this.problem('notification-error', `the handler of notification "${method}" failed`, error),
        );
      }
    } catch (error) {
      // A notification is never answered, not even with an error.
      this.problem('notification-error', `the handler of notification "${method}" threw`, error);
    }
  }

  private peerCancelled(params: unknown): void {
    if (typeof params !== 'object' || params === null) return;
    const { requestId, reason } = params as { requestId?: unknown; reason?: unknown };
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    const state = this.incoming.get(requestId);
    if (!state || state.cancelled) return;
    state.cancelled = true;
    state.abort(
      new RequestCancelledError(state.method, typeof reason === 'string' ? new Error(reason) : undefined),
    );
  }

  /** Returns true when the progress belonged to one of our requests. */
  private routeProgress(params: unknown): boolean {
    if (typeof params !== 'object' || params === null) return false;
    const { progressToken, progress, total, message } = params as Record<string, unknown>;
    if (typeof progressToken !== 'string' && typeof progressToken !== 'number') return false;
    // A request's progress token is its own id, so the pending request is found by the token itself.
    const entry = this.pending.get(progressToken);
    if (!entry?.onProgress || entry.progressToken !== progressToken) return false;
    // A later deadline needs no timer of its own: the timer finds it when it fires for the earlier one.
    if (entry.resetOnProgress && entry.idleTimeout > 0) {
      entry.idleAt = this.idleFrom(this.deadlines.now()) + entry.idleTimeout;
    }
    const update: Progress = { progress: typeof progress === 'number' ? progress : Number.NaN };
    if (typeof total === 'number') update.total = total;
    if (typeof message === 'string') update.message = message;
    try {
      entry.onProgress(update);
    } catch (error) {
      this.problem('notification-error', `the progress callback of "${entry.method}" threw`, error);
    }
    return true;
  }

  private handleResponse(message: JsonRpcResponse): void {
    const id = message.id;
    const entry = id === null ? undefined : this.pending.get(id);
    if (!entry || id === null) {
      if (id === null && isErrorResponse(message)) {
        this.problem('peer-error', `the peer reported an error: ${message.error.message}`, message.error);
      } else {
        this.problem(
          'unknown-response',
          `ignored a response to id ${JSON.stringify(id)}, which matches no request in flight`,
          message,
        );
      }
      return;
    }
    this.settle(id);
    if (isErrorResponse(message)) entry.reject(JsonRpcError.from(message.error));
    else entry.resolve(message.result);
  }

  // ---- bookkeeping ----

  /** Removes a pending request and its abort listener; false when it was already settled. */
  private settle(id: JsonRpcId): boolean {
    const entry = this.pending.get(id);
    if (!entry) return false;
    this.pending.delete(id);
    // Nothing left to time out: no timer may keep the process alive.
    if (this.pending.size === 0) this.deadlineTimer?.idle();
    if (entry.onAbort) {
      entry.signal?.removeEventListener('abort', entry.onAbort);
      entry.abortHook?.removeAbortListener(entry.onAbort);
    }
    return true;
  }

  /** The deadline timer fired: times out every request whose deadline has passed; returns the next one. */
  private expire(now: number): number {
    let next = Number.POSITIVE_INFINITY;
    // While the transport holds its messages, only the total limits run (the release sets the timer again).
    const held = this.hold !== undefined;
    for (const [id, entry] of this.pending) {
      const idleAt = held ? Number.POSITIVE_INFINITY : entry.idleAt;
      const at = Math.min(idleAt, entry.totalAt);
      if (at <= now) this.timedOut(id, entry, idleAt <= entry.totalAt ? 'idle' : 'total');
      else if (at < next) next = at;
    }
    return next;
  }

  /**
   * Where an idle wait that starts `now` counts from: the hold's start while the transport holds its
   * messages, since the release moves every idle deadline on by the whole hold.
   */
  private idleFrom(now: number): number {
    return this.hold ? this.hold.since : now;
  }

  /**
   * The transport holds its messages, or lets them go. The idle deadlines stand still while it holds (the
   * peer has not seen the requests yet); the total limits do not, so that a hold never outlasts them.
   */
  private transportHeld(holding: boolean): void {
    if (holding) {
      if (this.hold) this.hold.count++;
      else this.hold = { count: 1, since: this.deadlines.now() };
      return;
    }
    const hold = this.hold;
    if (!hold || --hold.count > 0) return;
    this.hold = undefined;
    if (this.closeReason) return;
    const held = this.deadlines.now() - hold.since;
    let next = Number.POSITIVE_INFINITY;
    for (const entry of this.pending.values()) {
      entry.idleAt += held;
      next = Math.min(next, entry.idleAt, entry.totalAt);
    }
    this.deadlines.ensure(next);
  }

  private timedOut(id: JsonRpcId, entry: PendingRequest, kind: 'idle' | 'total'): void {
    this.settle(id);
    const limit = kind === 'idle' ? entry.idleTimeout : entry.totalTimeout;
    const error = new RequestTimeoutError(entry.method, id, limit, kind);
    this.sendCancel(id, entry, error.message);
    entry.reject(error);
  }

  private sendCancel(id: JsonRpcId, entry: PendingRequest, reason: string): void {
    if (this.closeReason) return;
    entry.cancellation.cancel({
      id,
      method: entry.method,
      reason,
      sendOptions: entry.sendOptions,
      notify: (method, params) => this.notify(method, params),
    });
  }

  private peerInputEnded(): void {
    this.inputEnded = true;
    this.rejectAllPending({ message: 'the peer closed its side of the connection' });
    // The peer can still read: answer what is in flight, then close our side too.
    void this.whenIdle().then(() => this.transport.close());
  }

  private transportClosed(reason: CloseReason): void {
    if (this.closeReason) return;
    this.closeReason = reason;
    this.rejectAllPending(reason);
    this.deadlineTimer?.stop();
    if (this.incoming.size > 0) {
      for (const state of this.incoming.values()) state.abort(new Error(reason.message));
    }
    const listeners = this.closeListeners ?? [];
    this.closeListeners = undefined;
    for (const listener of listeners) listener(reason);
  }

  private rejectAllPending(reason: CloseReason): void {
    if (this.pending.size === 0) return;
    for (const [id, entry] of [...this.pending]) {
      this.settle(id);
      entry.reject(new ConnectionClosedError(entry.method, reason));
    }
  }

  private notifyIdle(): void {
    const waiters = this.idleWaiters;
    if (!waiters) return;
    this.idleWaiters = undefined;
    for (const resolve of waiters) resolve();
  }

  private problem(kind: ConnectionProblem['kind'], message: string, detail?: unknown): void {
    this.options.onProblem?.({ kind, message, detail });
  }
}

/** Collects the responses of one incoming batch and sends them as one array once all are in. */
class BatchCollector {
  private readonly responses: JsonRpcResponse[] = [];
  private outstanding = 0;
  private sealed = false;

  constructor(private readonly send: (responses: JsonRpcResponse[]) => void) {}

  /** A handler started: its answer (or its silence, when cancelled) is awaited before sending. */
  expect(): void {
    this.outstanding++;
  }

  /** A response known at once (an error found while reading the batch). */
  add(response: JsonRpcResponse): void {
    this.responses.push(response);
  }

  /** An expected handler finished; `response` is undefined when it must not be answered. */
  settle(response: JsonRpcResponse | undefined): void {
    if (response) this.responses.push(response);
    this.outstanding--;
    this.maybeSend();
  }

  seal(): void {
    this.sealed = true;
    this.maybeSend();
  }

  private maybeSend(): void {
    // A batch of notifications only gets no response at all (JSON-RPC 2.0 §6).
    if (this.sealed && this.outstanding === 0 && this.responses.length > 0) {
      this.send(this.responses.splice(0));
    }
  }
}

function related(relatedRequestId: JsonRpcId | undefined): SendOptions | undefined {
  return relatedRequestId === undefined ? undefined : { relatedRequestId };
}

function successResponse(id: JsonRpcId, result: unknown): JsonRpcResponse {
  return { jsonrpc: '2.0', id, result: result === undefined ? null : result };
}

function errorResponse(
  id: JsonRpcId | null,
  code: number,
  message: string,
  data?: unknown,
): JsonRpcErrorResponse {
  return data === undefined
    ? { jsonrpc: '2.0', id, error: { code, message } }
    : { jsonrpc: '2.0', id, error: { code, message, data } };
}

/** Text for anything a handler threw, even a value with no string form. */
function describeThrown(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return 'a thrown value that cannot be shown as text';
  }
}

function unsendable(response: JsonRpcResponse, error: unknown): JsonRpcErrorResponse {
  return errorResponse(
    response.id,
    ErrorCode.InternalError,
    `Internal error: the response cannot be sent as JSON (${describeThrown(error)})`,
  );
}

function looksLikeResponse(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !('method' in value) &&
    ('result' in value || 'error' in value)
  );
}

/** Whether a handler's answer is to be waited on (a promise, or any thenable) rather than taken as it is. */
export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
  );
}

function readProgressToken(params: unknown): ProgressToken | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const token = (meta as { progressToken?: unknown }).progressToken;
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}

function withProgressToken(params: unknown, progressToken: ProgressToken): unknown {
  const base = (typeof params === 'object' && params !== null ? params : {}) as Record<string, unknown>;
  const meta = base._meta;
  // Object.assign rather than a spread followed by a new key, which took a slow path in V8 (6% of a
  // pipelined client's time: a tools/call asks for progress by default).
  const copy: Record<string, unknown> = Object.assign({}, base);
  copy._meta =
    typeof meta === 'object' && meta !== null
      ? Object.assign({}, meta, { progressToken })
      : { progressToken };
  return copy;
}
