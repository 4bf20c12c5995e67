// createHttpHandler is a plain Node request handler: a user mounts it at a path of their own server,
// next to their own routes, and ends every session with closeAll() when shutting down.

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createHttpHandler } from '../../src/server/http.js';
import type { HttpHandler } from '../../src/transport/http/server-handler.js';
import { EventReader, expectJsonRpcError, openSession, post, testServer } from '../support/http-helpers.js';
import { cites } from '../support/requirements.js';

describe('the handler mounted in a server of our own', { timeout: 10_000 }, () => {
  let http: Server;
  let handler: HttpHandler;
  let base: string;
  const connected: string[] = [];

  before(async () => {
    const { server } = testServer();
    handler = createHttpHandler((transport) => {
      connected.push('session');
      server.connect(transport);
    });
    http = createServer((request, response) => {
      if (request.url === '/health') {
        response.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
      } else if (request.url?.startsWith('/api/mcp')) {
        void handler(request, response);
      } else {
        response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });

  after(async () => {
    handler?.closeAll();
    http?.closeAllConnections();
    await new Promise<void>((resolve) => http?.close(() => resolve()) ?? resolve());
  });

  it('serves MCP at its path and leaves the other routes to the server', async () => {
    const session = await openSession(`${base}/api/mcp`);
    assert.deepEqual(connected, ['session']);
    assert.deepEqual([...handler.sessions.keys()], [session.id]);
    const call = await post(
      `${base}/api/mcp`,
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'mounted' } },
      },
      { ...session.headers, Accept: 'application/json' },
    );
    const body = (await call.json()) as { result: { content: Array<{ text: string }> } };
    assert.equal(body.result.content[0]?.text, 'mounted');
    const health = await fetch(`${base}/health`);
    assert.equal(await health.text(), 'ok');
  });

  it(cites('http.dns-rebinding')`keeps its safe defaults when mounted (local Origin only)`, async () => {
    const response = await post(
      `${base}/api/mcp`,
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      {
        Origin: 'https://attacker.example',
      },
    );
    await expectJsonRpcError(response, 403, -32600, /Origin/);
  });

  it('ends every session and its open streams on closeAll()', async () => {
    const session = await openSession(`${base}/api/mcp`);
    const stream = await fetch(`${base}/api/mcp`, {
      headers: { ...session.headers, Accept: 'text/event-stream' },
    });
    const reader = new EventReader(stream);
    await reader.next(); // the priming event
    handler.closeAll();
    assert.equal(await reader.next(), undefined, 'the GET stream ended');
    assert.equal(handler.sessions.size, 0);
    const after = await post(`${base}/api/mcp`, { jsonrpc: '2.0', id: 3, method: 'ping' }, session.headers);
    await expectJsonRpcError(after, 404, -32001);
  });
});

describe('the handler, when what it is mounted with fails', { timeout: 10_000 }, () => {
  it('answers 500 with the reason when connecting a session throws, and serves on', async () => {
    // The body is served from the callback that reads it, not from a promise: a throw there must still
    // become an answer, not an uncaught exception that ends the process.
    let fail = true;
    const { server } = testServer();
    const handler = createHttpHandler((transport) => {
      if (fail) throw new Error('no room for a session');
      server.connect(transport);
    });
    const http = createServer((request, response) => void handler(request, response));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    try {
      const refused = await post(url, {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      });
      await expectJsonRpcError(refused, 500, -32603, /Internal error: no room for a session/);
      fail = false;
      const session = await openSession(url);
      assert.ok(session.id);
    } finally {
      handler.closeAll();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  });
});
