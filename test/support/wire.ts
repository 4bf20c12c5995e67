// A raw JSON-RPC client for exact tests: it drives an McpServer through the in-memory transport pair with
// hand-written messages and keeps every message the server sent. Each of them is validated against the
// JSON Schema of the negotiated revision: a response when it is awaited, everything again at close().

import assert from 'node:assert/strict';
import type { JsonRpcPayload } from '../../src/jsonrpc/messages.js';
import type { ServerSession } from '../../src/protocol/server-session.js';
import type { McpServer } from '../../src/server/server.js';
import { createInMemoryPair, type InMemoryTransport } from '../../src/transport/memory.js';
import { HANDSHAKE_REVISIONS, messageErrors } from './spec-validate.js';

export type Message = Record<string, unknown> & { id?: string | number | null; method?: string };

export interface Response extends Message {
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

export interface InitializeOptions {
  capabilities?: Record<string, unknown>;
  clientInfo?: Record<string, unknown>;
  /** Send notifications/initialized after the response (true). */
  initialized?: boolean;
}

export class Wire {
  /** Every payload the server sent, in order. */
  readonly received: unknown[] = [];
  /** The revision negotiated by initialize, from the server's answer. */
  version: string | undefined;
  private readonly clientSide: InMemoryTransport;
  private readonly methods = new Map<unknown, string>();
  private readonly waiters: Array<{ test: (m: unknown) => boolean; resolve: (m: unknown) => void }> = [];
  private nextId = 1;
  /** The server's side of this connection. */
  readonly session: ServerSession;

  constructor(readonly server: McpServer) {
    const [clientSide, serverSide] = createInMemoryPair();
    this.clientSide = clientSide;
    this.session = server.connect(serverSide);
    clientSide.start({
      message: (payload) => this.receive(payload),
      frameError: () => assert.fail('the in-memory transport reported a frame error'),
      closed: () => {},
    });
  }

  /** Connects and, with a version, completes the handshake in that revision. */
  static async open(server: McpServer, version?: string, options: InitializeOptions = {}): Promise<Wire> {
    const wire = new Wire(server);
    if (version !== undefined) {
      const response = await wire.initialize(version, options);
      assert.ok(response.result, `initialize failed: ${JSON.stringify(response.error)}`);
    }
    return wire;
  }

  async initialize(version: unknown, options: InitializeOptions = {}): Promise<Response> {
    const params: Record<string, unknown> = {
      protocolVersion: version,
      capabilities: options.capabilities ?? {},
      clientInfo: options.clientInfo ?? { name: 'wire', version: '1.0.0' },
    };
    const response = await this.request('initialize', params);
    if (response.result) {
      if (options.initialized ?? true) this.notify('notifications/initialized');
    }
    return response;
  }

  /** Sends any payload, valid or not, as the client. Requests in it are remembered by id. */
  send(payload: unknown): void {
    for (const item of Array.isArray(payload) ? payload : [payload]) {
      const m = item as Message;
      if (typeof m?.method === 'string' && m.id !== undefined) this.methods.set(m.id, m.method);
    }
    this.clientSide.send(payload as JsonRpcPayload);
  }

  /** Sends a request and resolves with its response, once that is checked against the revision's schema. */
  async request(method: string, params?: unknown, id: string | number = this.nextId++): Promise<Response> {
    const message: Message = { jsonrpc: '2.0', id, method };
    if (params !== undefined) message.params = params;
    const waiting = this.responseTo(id);
    this.send(message);
    const response = await waiting;
    // The answer to initialize is checked in the revision it names.
    if (method === 'initialize' && typeof response.result?.protocolVersion === 'string') {
      this.version = response.result.protocolVersion;
    }
    await this.check(response);
    return response;
  }

  /** A request that must fail: its error. */
  async error(method: string, params?: unknown): Promise<NonNullable<Response['error']>> {
    const response = await this.request(method, params);
    assert.ok(response.error, `expected an error from ${method}, got ${JSON.stringify(response.result)}`);
    return response.error;
  }

  /** A request that must succeed: its result. */
  async result<T = Record<string, unknown>>(method: string, params?: unknown): Promise<T> {
    const response = await this.request(method, params);
    assert.ok(response.result, `expected a result from ${method}, got ${JSON.stringify(response.error)}`);
    return response.result as T;
  }

  notify(method: string, params?: unknown): void {
    const message: Message = { jsonrpc: '2.0', method };
    if (params !== undefined) message.params = params;
    this.send(message);
  }

  /** The response (a single message) to the request with `id`, whenever it comes. */
  responseTo(id: unknown): Promise<Response> {
    return this.waitFor((m) => isObject(m) && m.id === id && !('method' in m)) as Promise<Response>;
  }

  /** The first message from the server, already received or still to come, that passes `test`. */
  waitFor(test: (message: Message) => boolean): Promise<Message> {
    const wrapped = (m: unknown) => isObject(m) && test(m as Message);
    const found = this.received.find(wrapped);
    if (found) return Promise.resolve(found as Message);
    return new Promise((resolve) =>
      this.waiters.push({ test: wrapped, resolve: resolve as (m: unknown) => void }),
    );
  }

  /** The first payload (a batch, say) that passes `test`. */
  waitForPayload(test: (payload: unknown) => boolean): Promise<unknown> {
    const found = this.received.find(test);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  /** Notifications with `method` received so far, by their params. */
  notifications(method: string): Array<Record<string, unknown>> {
    return this.received
      .filter((m): m is Message => isObject(m) && m.method === method && !('id' in m))
      .map((m) => (m.params ?? {}) as Record<string, unknown>);
  }

  /**
   * Waits until the server has finished every request in flight and sent what they produced: a ping's
   * answer comes after everything the server sent before it.
   */
  async settle(): Promise<void> {
    await this.session.connection.whenIdle();
    await this.request('ping');
  }

  /** Checks every message the server sent against the negotiated revision (all four before one). */
  async checkAll(): Promise<void> {
    for (const message of this.received) await this.check(message);
  }

  /** checkAll(), then closes the connection. */
  async close(): Promise<void> {
    await this.checkAll();
    await this.clientSide.close();
  }

  private async check(message: unknown): Promise<void> {
    const revisions = this.version ? [this.version] : HANDSHAKE_REVISIONS;
    for (const revision of revisions) {
      const errors = await messageErrors(revision, message, (id) => this.methods.get(id));
      assert.deepEqual(
        errors,
        [],
        `the server sent a message invalid in ${revision}: ${JSON.stringify(message)}`,
      );
    }
  }

  private receive(payload: unknown): void {
    this.received.push(payload);
    for (let i = 0; i < this.waiters.length; i++) {
      const waiter = this.waiters[i]!;
      if (waiter.test(payload)) {
        this.waiters.splice(i--, 1);
        waiter.resolve(payload);
      }
    }
  }
}

function isObject(value: unknown): value is Message {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A promise with its resolve function outside, for handlers that tests release by hand. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
