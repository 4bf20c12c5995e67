// A server written by hand for client tests: it reads and writes raw JSON-RPC on the other end of the
// in-memory pair, so a test sees exactly what the client put on the wire and answers exactly as it likes.
// Also: a client connected to it through the handshake, and a client connected to a real McpServer.

import assert from 'node:assert/strict';
import { McpClient, type McpClientOptions } from '../../src/client/client.js';
import type { CloseReason } from '../../src/jsonrpc/errors.js';
import type { JsonRpcPayload } from '../../src/jsonrpc/messages.js';
import type { McpServer } from '../../src/server/server.js';
import { createInMemoryPair, type InMemoryTransport } from '../../src/transport/memory.js';

export type Message = {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
};

export class FakeServer {
  /** Every message the client sent, in order. */
  readonly received: Message[] = [];
  readonly closed: Promise<CloseReason>;
  private readonly taken = new Set<Message>();
  private readonly waiters: Array<{ test: (m: Message) => boolean; resolve: (m: Message) => void }> = [];
  private nextId = 1;

  constructor(readonly transport: InMemoryTransport) {
    let onClosed!: (reason: CloseReason) => void;
    this.closed = new Promise((resolve) => {
      onClosed = resolve;
    });
    transport.start({
      message: (payload) => {
        for (const item of Array.isArray(payload) ? payload : [payload]) this.receive(item as Message);
      },
      frameError: () => assert.fail('the in-memory transport reported a frame error'),
      closed: (reason) => onClosed(reason),
    });
  }

  /** The first message, received or still to come, that passes `test`. */
  waitFor(test: (m: Message) => boolean): Promise<Message> {
    const found = this.received.find(test);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  /** The next request with `method` that no earlier call to this took. */
  async request(method: string): Promise<Message> {
    const message = await this.waitFor((m) => m.method === method && 'id' in m && !this.taken.has(m));
    this.taken.add(message);
    return message;
  }

  /** The next notification with `method` that no earlier call to this took. */
  async notification(method: string): Promise<Message> {
    const message = await this.waitFor((m) => m.method === method && !('id' in m) && !this.taken.has(m));
    this.taken.add(message);
    return message;
  }

  /** Requests and notifications the client sent, by method. */
  methods(): string[] {
    return this.received.filter((m) => m.method !== undefined).map((m) => m.method!);
  }

  send(payload: unknown): void {
    this.transport.send(payload as JsonRpcPayload);
  }

  reply(id: Message['id'], result: Record<string, unknown>): void {
    this.send({ jsonrpc: '2.0', id, result });
  }

  fail(id: Message['id'], code: number, message: string): void {
    this.send({ jsonrpc: '2.0', id, error: { code, message } });
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  /** Sends a request to the client and resolves with the client's response. */
  ask(
    method: string,
    params?: Record<string, unknown>,
    id: string | number = `s${this.nextId++}`,
  ): Promise<Message> {
    const answered = this.waitFor((m) => m.id === id && m.method === undefined);
    this.send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
    return answered;
  }

  /** Answers the client's initialize with `result` (the requested version, no capabilities by default). */
  async handshake(result: Record<string, unknown> = {}): Promise<Message> {
    const initialize = await this.request('initialize');
    this.reply(initialize.id, {
      protocolVersion: initialize.params?.protocolVersion,
      capabilities: {},
      serverInfo: { name: 'fake', version: '0.0.1' },
      ...result,
    });
    return initialize;
  }

  private receive(message: Message): void {
    this.received.push(message);
    for (let i = 0; i < this.waiters.length; i++) {
      const waiter = this.waiters[i]!;
      if (waiter.test(message)) {
        this.waiters.splice(i--, 1);
        waiter.resolve(message);
      }
    }
  }
}

export const CLIENT_INFO = { name: 'client-test', version: '1.0.0' };

/**
 * A client connected through the handshake to a fake server; `era: 'handshake'` skips the
 * server/discover probe so that the wire holds only what the test is about.
 */
export async function connectToFake(
  options: Partial<McpClientOptions> = {},
  initializeResult: Record<string, unknown> = {},
): Promise<{ client: McpClient; server: FakeServer; initialize: Message }> {
  const [clientSide, serverSide] = createInMemoryPair();
  const server = new FakeServer(serverSide);
  const client = new McpClient({ ...CLIENT_INFO, era: 'handshake', ...options });
  const [initialize] = await Promise.all([server.handshake(initializeResult), client.connect(clientSide)]);
  // notifications/initialized follows the answer; every test starts after it.
  await server.notification('notifications/initialized');
  return { client, server, initialize };
}

/** A client connected to a real McpServer in the era asked for; `wire` holds what the client sent. */
export async function connectToServer(
  server: McpServer,
  options: Partial<McpClientOptions> = {},
): Promise<{ client: McpClient; wire: InMemoryTransport }> {
  const [clientSide, serverSide] = createInMemoryPair();
  server.connect(serverSide);
  const client = new McpClient({ ...CLIENT_INFO, era: 'handshake', ...options });
  await client.connect(clientSide);
  return { client, wire: clientSide };
}

/** Requests in what the client sent, as {method, params}, in order. */
export function sentRequests(wire: InMemoryTransport): Array<{ method: string; params: unknown }> {
  return (wire.sent as Message[])
    .filter((m) => m.method !== undefined && m.id !== undefined)
    .map((m) => ({ method: m.method!, params: m.params }));
}

/** The rejection of `promise`, failing when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    (value) => assert.fail(`expected a rejection, got ${JSON.stringify(value)}`),
    (error: unknown) => error as Error,
  );
}
