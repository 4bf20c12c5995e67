// A fleet in one process: three endpoints sharing the in-memory defaults of the fleet's interfaces
// (InMemorySessionStore, InMemoryBusHub, InMemoryEventStore), each request sent to the instance the test
// picks. What crosses instances here is what a balancer would make cross them.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpServer } from '../../src/server/server.js';
import { InMemoryBusHub } from '../../src/transport/bus.js';
import { InMemoryEventStore } from '../../src/transport/http/event-store.js';
import type { HttpListener } from '../../src/transport/http/listen.js';
import { InMemorySessionStore } from '../../src/transport/http/session-store.js';

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
