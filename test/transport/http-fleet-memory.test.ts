// A fleet in one process: three endpoints sharing the in-memory defaults of the fleet's interfaces
// (InMemorySessionStore, InMemoryBusHub, InMemoryEventStore), each request sent to the instance the test
// picks. What crosses instances here is what a balancer would make cross them.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { requestMetadataHeaders } from '../../src/protocol/http/metadata-headers.js';
import type { ServerSession } from '../../src/protocol/server-session.js';
import { McpServer } from '../../src/server/server.js';
import { InMemoryBusHub } from '../../src/transport/bus.js';
import { InMemoryEventStore } from '../../src/transport/http/event-store.js';
import type { HttpListener } from '../../src/transport/http/listen.js';
import { InMemorySessionStore, type SessionStore } from '../../src/transport/http/session-store.js';

const HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

describe('a fleet of three endpoints on the in-memory defaults', { timeout: 30_000 }, () => {
  const listeners: HttpListener[] = [];
  let cancelled!: () => void;
  const wasCancelled = new Promise<void>((resolve) => {
    cancelled = resolve;
  });
  let started!: () => void;
  const hasStarted = new Promise<void>((resolve) => {
    started = resolve;
  });

  before(async () => {
    const sessions = new InMemorySessionStore();
    const hub = new InMemoryBusHub();
    const eventStore = new InMemoryEventStore();
    for (let i = 0; i < 3; i++) {
      const server = new McpServer({ name: `instance-${i}`, version: '1' });
      server.tool({ name: 'block', description: 'Waits until cancelled' }, (_args, ctx) => {
        started();
        return new Promise((_, reject) => {
          ctx.signal.addEventListener('abort', () => {
            cancelled();
            reject(new Error('cancelled'));
          });
        });
      });
      listeners.push(await server.serveHttp({ fleet: { sessions, bus: hub.join() }, eventStore }));
    }
  });

  after(async () => {
    await Promise.all(listeners.map((l) => l.close()));
  });

  const post = (to: number, body: unknown, headers: Record<string, string> = {}) =>
    fetch(listeners[to]!.url, {
      method: 'POST',
      headers: { ...HEADERS, ...headers },
      body: JSON.stringify(body),
    });

  it('a cancellation POSTed to another instance reaches the request where it runs', async () => {
    const init = await post(0, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    const session = init.headers.get('mcp-session-id');
    assert.ok(session);
    await init.text();
    const headers = { 'Mcp-Session-Id': session, 'MCP-Protocol-Version': '2025-11-25' };
    const call = await post(
      1,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'block' } },
      headers,
    );
    assert.equal(call.status, 200);
    await hasStarted;
    const cancel = await post(
      2,
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'test' } },
      headers,
    );
    assert.equal(cancel.status, 202);
    await wasCancelled;
    await call.body?.cancel();
  });

  it('a session unknown to the store is 404 on every instance', async () => {
    for (let i = 0; i < 3; i++) {
      const response = await post(i, { jsonrpc: '2.0', id: 1, method: 'ping' }, { 'Mcp-Session-Id': 'nope' });
      assert.equal(response.status, 404);
      await response.text();
    }
  });
});

describe('what belongs to no request (subscriptions, server notifications) in a fleet of three endpoints', {
  timeout: 30_000,
}, () => {
  const listeners: HttpListener[] = [];
  const servers: McpServer[] = [];
  /** What each instance's server heard through onSubscriptionChange, in order. */
  const heard: string[] = [];
  let poke = () => {};
  const hear = (count: number) =>
    new Promise<void>((resolve) => {
      poke = () => {
        if (heard.length >= count) resolve();
      };
      poke();
    });

  /** An instance whose next read of the store is held (as a slow Redis would), and how to let it go. */
  const holds = new Map<number, { reached: () => void; released: Promise<void> }>();
  /** Instance `i`'s view of the shared store: a read may be held after it was made. */
  const viewOf = (inner: SessionStore, i: number): SessionStore => ({
    create: (...args) => inner.create(...args),
    update: (...args) => inner.update(...args),
    delete: (id) => inner.delete(id),
    count: () => inner.count(),
    get: async (id, ttlMs) => {
      const record = await inner.get(id, ttlMs);
      const hold = holds.get(i);
      if (hold) {
        holds.delete(i);
        hold.reached();
        await hold.released;
      }
      return record;
    },
  });

  before(async () => {
    const sessions = new InMemorySessionStore();
    const hub = new InMemoryBusHub();
    const eventStore = new InMemoryEventStore();
    for (let i = 0; i < 3; i++) {
      const server = new McpServer({ name: `instance-${i}`, version: '1' });
      server.resource({ uri: 'test://watched', name: 'watched' }, (uri) => [{ uri, text: 'x' }]);
      server.onSubscriptionChange((uri, subscribed) => {
        heard.push(`${i} ${subscribed ? 'on' : 'off'} ${uri}`);
        poke();
      });
      servers.push(server);
      listeners.push(
        await server.serveHttp({ fleet: { sessions: viewOf(sessions, i), bus: hub.join() }, eventStore }),
      );
    }
  });

  after(async () => {
    await Promise.all(listeners.map((l) => l.close()));
  });

  const send = (to: number, method: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(listeners[to]!.url, {
      method,
      headers: { ...HEADERS, ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('the server hears of a subscription once in the fleet: on the instance holding the GET stream, wherever it moves', async () => {
    const init = await send(0, 'POST', {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    const session = init.headers.get('mcp-session-id');
    assert.ok(session);
    await init.text();
    const headers = { 'Mcp-Session-Id': session, 'MCP-Protocol-Version': '2025-11-25' };
    await (await send(0, 'POST', { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).text();
    const firstStream = new AbortController();
    const get = await fetch(listeners[1]!.url, {
      headers: { ...headers, Accept: 'text/event-stream' },
      signal: firstStream.signal,
    });
    assert.equal(get.status, 200);
    // Subscribed on a third instance: each of the three has a copy of the session now.
    const subscribe = await send(
      2,
      'POST',
      { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'test://watched' } },
      headers,
    );
    assert.match(await subscribe.text(), /"result"/);
    await hear(1);
    assert.deepEqual(heard, ['1 on test://watched']);

    // The GET stream moves to instance 0: the subscription follows it.
    firstStream.abort();
    const secondStream = new AbortController();
    const moved = await fetch(listeners[0]!.url, {
      headers: { ...headers, Accept: 'text/event-stream' },
      signal: secondStream.signal,
    });
    assert.equal(moved.status, 200);
    await hear(3);
    assert.deepEqual(heard.slice(1).sort(), ['0 on test://watched', '1 off test://watched']);

    // The session ends (on the instance that never delivered): the one delivering stops.
    assert.equal((await send(2, 'DELETE', undefined, headers)).status, 200);
    await hear(4);
    assert.deepEqual(heard.slice(3), ['0 off test://watched']);
    secondStream.abort();
    assert.equal(heard.length, 4);
  });

  /** A session opened and initialized on instance 0; its headers. */
  async function initializedOn0(capabilities: Record<string, unknown> = {}): Promise<Record<string, string>> {
    const init = await send(0, 'POST', {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 't', version: '1' } },
    });
    const session = init.headers.get('mcp-session-id');
    assert.ok(session);
    await init.text();
    const headers = { 'Mcp-Session-Id': session, 'MCP-Protocol-Version': '2025-11-25' };
    await (await send(0, 'POST', { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).text();
    return headers;
  }

  /** What a GET stream carried up to and including `needle`. */
  async function readUntil(get: Response, needle: string, what: string): Promise<string> {
    const reader = get.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes(needle)) {
      const { value, done } = await reader.read();
      assert.ok(!done, `the GET stream ended before ${what}: ${text}`);
      text += decoder.decode(value, { stream: true });
    }
    return text;
  }

  it('a notification sent on an instance that does not hold the GET stream reaches it through the one that does', async () => {
    const headers = await initializedOn0();
    const stream = new AbortController();
    const get = await fetch(listeners[1]!.url, {
      headers: { ...headers, Accept: 'text/event-stream' },
      signal: stream.signal,
    });
    assert.equal(get.status, 200);
    // Instance 0 has its copy of the session (it served initialize); the stream is on instance 1.
    servers[0]!.log('notice', 'said on instance 0');
    const text = await readUntil(get, 'said on instance 0', 'the message');
    assert.match(text, /"method":"notifications\/message"/);
    stream.abort();
    assert.equal((await send(0, 'DELETE', undefined, headers)).status, 200);
  });

  it('a request the server sends on its own, on an instance without the GET stream, goes out there and its answer comes back through any instance', async () => {
    const headers = await initializedOn0({ roots: {} });
    // Instance 2 gets its copy of the session from a ping; the GET stream is on instance 1.
    assert.match(
      await (await send(2, 'POST', { jsonrpc: '2.0', id: 2, method: 'ping' }, headers)).text(),
      /"result"/,
    );
    const stream = new AbortController();
    const get = await fetch(listeners[1]!.url, {
      headers: { ...headers, Accept: 'text/event-stream' },
      signal: stream.signal,
    });
    assert.equal(get.status, 200);
    // The copy on instance 2 asks the client for its roots, related to no request of the client's.
    const copies = [...(servers[2] as unknown as { sessions: Set<ServerSession> }).sessions];
    const asked = copies.at(-1)!.connection.request('roots/list');
    const text = await readUntil(get, '"method":"roots/list"', 'the request');
    const line = text.split('\n').find((l) => l.startsWith('data: ') && l.includes('roots/list'))!;
    const request = JSON.parse(line.slice('data: '.length)) as { id: string | number };
    // The answer lands on instance 0, which neither sent the request nor holds the stream.
    const answered = await send(
      0,
      'POST',
      { jsonrpc: '2.0', id: request.id, result: { roots: [{ uri: 'file:///work', name: 'work' }] } },
      headers,
    );
    assert.equal(answered.status, 202);
    assert.deepEqual(await asked, { roots: [{ uri: 'file:///work', name: 'work' }] });
    stream.abort();
    assert.equal((await send(0, 'DELETE', undefined, headers)).status, 200);
  });

  it('a subscription made while the GET stream is being taken on another instance is not missed there', async () => {
    heard.length = 0;
    const init = await send(0, 'POST', {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    const session = init.headers.get('mcp-session-id');
    assert.ok(session);
    await init.text();
    const headers = { 'Mcp-Session-Id': session, 'MCP-Protocol-Version': '2025-11-25' };
    await (await send(0, 'POST', { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).text();
    // Instance 1 reads the session for the GET (no subscription yet) and is slow to go on; meanwhile
    // the subscription is made and announced on instance 2, before instance 1 has its copy to hear it.
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const reached = new Promise<void>((resolve) => holds.set(1, { reached: resolve, released }));
    const stream = new AbortController();
    const get = fetch(listeners[1]!.url, {
      headers: { ...headers, Accept: 'text/event-stream' },
      signal: stream.signal,
    });
    await reached;
    const subscribe = await send(
      2,
      'POST',
      { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'test://watched' } },
      headers,
    );
    assert.match(await subscribe.text(), /"result"/);
    release();
    assert.equal((await get).status, 200);
    await hear(1);
    assert.deepEqual(heard, ['1 on test://watched']);
    assert.equal((await send(0, 'DELETE', undefined, headers)).status, 200);
    await hear(2);
    assert.deepEqual(heard, ['1 on test://watched', '1 off test://watched']);
    stream.abort();
  });
});

describe('serveHttp({ requestState }): the keys a fleet shares', { timeout: 30_000 }, () => {
  const MODERN_META = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
    'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
  };
  /** An instance whose tool asks one question (an input_required round), signing with `keys`. */
  const instance = (keys: string[]) => {
    const server = new McpServer({ name: 'asks', version: '1' });
    server.tool({ name: 'ask', description: 'Asks for a name' }, async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'Name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
      });
      return { content: [{ type: 'text', text: `hello ${String(answer.content?.name)}` }] };
    });
    return server.serveHttp({ requestState: { keys } });
  };
  const call = async (listener: HttpListener, extra: Record<string, unknown> = {}) => {
    const message = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'ask', arguments: {}, _meta: MODERN_META, ...extra },
    };
    const response = await fetch(listener.url, {
      method: 'POST',
      headers: { ...HEADERS, ...requestMetadataHeaders(message) },
      body: JSON.stringify(message),
    });
    return (await response.json()) as {
      result?: {
        resultType: string;
        requestState?: string;
        inputRequests?: Record<string, unknown>;
        content?: unknown;
      };
      error?: { code: number; message: string };
    };
  };
  /** Asks on `first`, answers on `second`. */
  const crossing = async (first: HttpListener, second: HttpListener) => {
    const round = await call(first);
    assert.equal(round.result?.resultType, 'input_required');
    const key = Object.keys(round.result!.inputRequests!)[0]!;
    return call(second, {
      inputResponses: { [key]: { action: 'accept', content: { name: 'Ada' } } },
      requestState: round.result!.requestState,
    });
  };
  const listeners: HttpListener[] = [];
  after(async () => {
    await Promise.all(listeners.map((l) => l.close()));
  });

  it('a round asked on one instance is answered on another with the same keys, and refused by one with others', async () => {
    const shared = 'a secret the whole fleet shares';
    const [a, b, stranger] = await Promise.all([
      instance([shared]),
      instance([shared]),
      instance(['a secret of its own, not shared']),
    ]);
    listeners.push(a, b, stranger);
    const done = await crossing(a, b);
    assert.equal(done.result?.resultType, 'complete');
    assert.deepEqual(done.result?.content, [{ type: 'text', text: 'hello Ada' }]);
    const refused = await crossing(a, stranger);
    assert.equal(refused.error?.code, -32602);
    assert.match(refused.error?.message ?? '', /requestState/);
  });
});

describe('an event store that fails (Redis gone in the middle)', { timeout: 30_000 }, () => {
  it('still answers the request on its SSE stream, without event ids', async () => {
    const server = new McpServer({ name: 'failing-store', version: '1' });
    server.tool({ name: 'hello', description: 'Says hello' }, () => ({
      content: [{ type: 'text', text: 'hello' }],
    }));
    const failing = {
      storeEvent: async (): Promise<string> => {
        throw new Error('the store is down');
      },
      streamOf: async () => undefined,
      replayAfter: async () => {},
    };
    const listener = await server.serveHttp({ eventStore: failing });
    try {
      const post = (body: unknown, headers: Record<string, string> = {}) =>
        fetch(listener.url, {
          method: 'POST',
          headers: { ...HEADERS, ...headers },
          body: JSON.stringify(body),
        });
      const init = await post({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      });
      const session = init.headers.get('mcp-session-id');
      assert.ok(session);
      assert.match(await init.text(), /"protocolVersion"/);
      const call = await post(
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'hello' } },
        { 'Mcp-Session-Id': session, 'MCP-Protocol-Version': '2025-11-25' },
      );
      const text = await call.text();
      assert.match(text, /"text":"hello"/);
      assert.doesNotMatch(text, /^id:/m);
    } finally {
      await listener.close();
    }
  });
});

describe("an instance's copy of an idle session", { timeout: 30_000 }, () => {
  it('is let go after localCopyIdle while the session lives on in the store: the next request makes a new copy', async () => {
    const sessions = new InMemorySessionStore();
    const hub = new InMemoryBusHub();
    const server = new McpServer({ name: 'copies', version: '1' });
    server.tool({ name: 'hello', description: 'Says hello' }, () => ({
      content: [{ type: 'text', text: 'hello' }],
    }));
    const listener = await server.serveHttp({
      fleet: { sessions, bus: hub.join(), localCopyIdle: 20 },
      eventStore: new InMemoryEventStore(),
    });
    try {
      const post = (body: unknown, headers: Record<string, string> = {}) =>
        fetch(listener.url, {
          method: 'POST',
          headers: { ...HEADERS, ...headers },
          body: JSON.stringify(body),
        });
      const init = await post({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      });
      const session = init.headers.get('mcp-session-id');
      assert.ok(session);
      await init.text();
      const headers = { 'Mcp-Session-Id': session, 'MCP-Protocol-Version': '2025-06-18' };
      assert.equal(
        (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status,
        202,
      );
      await eventuallyTrue(() => !listener.handler.sessions.has(session), 'the idle copy being let go');
      assert.ok(await sessions.get(session, 60_000), 'the session is still in the store');
      const call = await post(
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'hello' } },
        headers,
      );
      assert.equal(call.status, 200);
      assert.match(await call.text(), /"text":"hello"/);
      assert.ok(listener.handler.sessions.has(session), 'a new copy serves it');
    } finally {
      await listener.close();
    }
  });
});

/** Resolves once `done()` holds, checking after each turn of the event loop; fails after 5 s. */
async function eventuallyTrue(done: () => boolean, what: string): Promise<void> {
  const started = Date.now();
  while (!done()) {
    if (Date.now() - started > 5000) assert.fail(`${what} did not happen within 5000 ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
