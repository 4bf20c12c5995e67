// A scripted peer for exact tests of the JSON-RPC connection. FakePeer is a Transport that the test drives
// from the other side: it injects any value, valid or not, frame errors, end of input and close, and keeps
// every payload the connection sent, copied through JSON as on a real wire.

import { Connection, type ConnectionOptions, type ConnectionProblem } from '../../src/jsonrpc/connection.js';
import type { CloseReason } from '../../src/jsonrpc/errors.js';
import type { JsonRpcPayload } from '../../src/jsonrpc/messages.js';
import type { FrameError, SendOptions, Transport, TransportHandlers } from '../../src/jsonrpc/transport.js';

// Kept before any test can install mock timers: the helpers' own bounds always run on real time.
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;
const realSetImmediate = globalThis.setImmediate;

/** How long a helper waits for something that should have been sent before failing with a clear message. */
const WAIT_LIMIT_MS = 3000;

export type Wire = Record<string, unknown>;

export interface ResponseMessage {
  jsonrpc: string;
  id: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/**
 * Lets every queued microtask and promise job run (one macrotask turn). For work that is known to be
 * microtask-only (this fake transport, promise-returning handlers); never as a wait for time to pass.
 */
export function drain(): Promise<void> {
  return new Promise((resolve) => realSetImmediate(resolve));
}

export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Ids compare as exact JSON values: "1" is not 1, "" is not 0. */
export function sameId(a: unknown, b: unknown): boolean {
  return typeof a === typeof b && a === b;
}

export function isResponse(value: unknown): value is ResponseMessage {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !('method' in value) &&
    ('result' in value || 'error' in value)
  );
}

export class FakePeer implements Transport {
  /** Every payload the connection sent, as JSON copies, in order (a batch stays one array). */
  readonly sent: unknown[] = [];
  readonly sendOptions: Array<SendOptions | undefined> = [];
  closeCalls = 0;
  private handlers: TransportHandlers | undefined;
  private closeReason: CloseReason | undefined;
  private waiters: Array<() => void> = [];

  start(handlers: TransportHandlers): void {
    this.handlers = handlers;
  }

  send(payload: JsonRpcPayload, options?: SendOptions): void {
    if (this.closeReason) return;
    // Like every real transport: a value JSON cannot carry throws here.
    const text = JSON.stringify(payload);
    this.sent.push(JSON.parse(text));
    this.sendOptions.push(options);
    this.wake();
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  async close(): Promise<void> {
    this.closeCalls++;
    this.end({ message: 'closed' });
  }

  // ---- the peer's side ----

  /** Delivers one parsed frame, exactly as given. */
  deliver(value: unknown): void {
    this.started().message(value);
  }

  /** Delivers a frame given as JSON text (so that the value is exactly what that text parses to). */
  deliverJson(text: string): void {
    this.deliver(JSON.parse(text));
  }

  /** Delivers a request and resolves with the (single, non-batch) response that carries its id. */
  call(id: string | number, method: string, params?: unknown): Promise<ResponseMessage> {
    const from = this.sent.length;
    this.deliver(
      params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params },
    );
    return this.responseTo(id, from);
  }

  frameError(error: FrameError): void {
    this.started().frameError(error);
  }

  /** The peer will send nothing more (stdin ended), but can still read. */
  endInput(): void {
    this.started().inputEnded?.();
  }

  /** The transport holds its messages (true), as an HTTP client waiting for a login does, or lets them go. */
  hold(holding: boolean): void {
    this.started().held?.(holding);
  }

  /** The transport is gone (the peer exited, the socket broke...). */
  end(reason: CloseReason): void {
    if (this.closeReason) return;
    this.closeReason = reason;
    this.handlers?.closed(reason);
    this.wake();
  }

  get isClosed(): boolean {
    return this.closeReason !== undefined;
  }

  // ---- what the connection sent ----

  /** Every message sent, with batches opened up. */
  messages(): Wire[] {
    return this.sent.flatMap((payload) => (Array.isArray(payload) ? payload : [payload])) as Wire[];
  }

  /** Notifications sent with this method. */
  notifications(method: string): Wire[] {
    return this.messages().filter((m) => m.method === method && !('id' in m));
  }

  /** Responses sent (batches opened up) that carry exactly this id. */
  responsesTo(id: unknown): ResponseMessage[] {
    return this.messages().filter((m): m is Wire & ResponseMessage => isResponse(m) && sameId(m.id, id));
  }

  /** Resolves with the first payload at index >= `from` that matches, failing clearly if none comes. */
  waitFor(test: (payload: unknown) => boolean, what: string, from = 0): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = realSetTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== check);
        reject(
          new Error(`nothing matching ${what} was sent; sent: ${JSON.stringify(this.sent).slice(0, 2000)}`),
        );
      }, WAIT_LIMIT_MS);
      const check = () => {
        for (let i = from; i < this.sent.length; i++) {
          if (test(this.sent[i])) {
            realClearTimeout(timer);
            resolve(this.sent[i]);
            return;
          }
        }
        this.waiters.push(check);
      };
      check();
    });
  }

  /** The single (non-batch) response with exactly this id, sent at index >= `from`. */
  async responseTo(id: unknown, from = 0): Promise<ResponseMessage> {
    const found = await this.waitFor(
      (p) => isResponse(p) && sameId(p.id, id),
      `a response with id ${JSON.stringify(id)}`,
      from,
    );
    return found as ResponseMessage;
  }

  /** The first request sent with this method, at index >= `from`. */
  async requestFor(method: string, from = 0): Promise<Wire & { id: string | number }> {
    const found = await this.waitFor(
      (p) => typeof p === 'object' && p !== null && (p as Wire).method === method && 'id' in p,
      `a "${method}" request`,
      from,
    );
    return found as Wire & { id: string | number };
  }

  private started(): TransportHandlers {
    if (!this.handlers) throw new Error('the connection was not started');
    return this.handlers;
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const check of waiters) check();
  }
}

export interface Harness {
  connection: Connection;
  peer: FakePeer;
  /** Everything reported to the connection's onProblem hook. */
  problems: ConnectionProblem[];
}

/** A started connection over a FakePeer, with its problems recorded. */
export function connect(options: ConnectionOptions = {}): Harness {
  const peer = new FakePeer();
  const problems: ConnectionProblem[] = [];
  const connection = new Connection(peer, {
    ...options,
    onProblem: (problem) => {
      problems.push(problem);
      options.onProblem?.(problem);
    },
  });
  connection.start();
  return { connection, peer, problems };
}

/** Resolves with how a promise settled, without letting a rejection go unhandled. */
export function settled<T>(promise: Promise<T>): {
  state: () => 'pending' | 'fulfilled' | 'rejected';
  value: () => T | undefined;
  error: () => unknown;
} {
  let state: 'pending' | 'fulfilled' | 'rejected' = 'pending';
  let value: T | undefined;
  let error: unknown;
  promise.then(
    (v) => {
      state = 'fulfilled';
      value = v;
    },
    (e) => {
      state = 'rejected';
      error = e;
    },
  );
  return { state: () => state, value: () => value, error: () => error };
}
