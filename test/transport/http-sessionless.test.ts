// Sessionless serving of the handshake era (serveHttp({ sessionless: true }), `serve --sessionless`): no
// Mcp-Session-Id, every POST served on its own (as any instance behind a balancer would), and what that
// gives up refused with a clear answer.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEverythingServer } from '../../src/servers/everything/index.js';
import type { HttpListener } from '../../src/transport/http/listen.js';

/** The parts of a JSON-RPC answer these tests read. */
interface Answer {
  result: {
    protocolVersion?: string;
    content?: unknown;
    tools: unknown[];
    isError?: boolean;
  };
  error?: { message: string };
}

const HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json' };

describe('sessionless serving (handshake era)', { timeout: 30_000 }, () => {
  let listener: HttpListener;

  before(async () => {
    listener = await createEverythingServer().serveHttp({ sessionless: true });
  });

  after(async () => {
    await listener?.close();
  });

  const post = async (body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(listener.url, {
      method: 'POST',
      headers: { ...HEADERS, ...headers },
      body: JSON.stringify(body),
    });
    return { response, body: (await response.json()) as Answer };
  };

  it('answers initialize without a session id', async () => {
    const { response, body } = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('mcp-session-id'), null);
    assert.equal(body.result.protocolVersion, '2025-11-25');
  });

  it('serves any later request on its own, as the revision its header names', async () => {
    const { body } = await post(
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' } } },
      { 'MCP-Protocol-Version': '2025-06-18' },
    );
    assert.deepEqual(body.result.content, [{ type: 'text', text: 'Echo: hi' }]);
    const listed = await post({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
    assert.ok(listed.body.result.tools.length > 0);
  });

  it('refuses a server-to-client request with a clear error: the client has no capabilities here', async () => {
    const { body } = await post(
      {
        jsonrpc: '2.0',
        id: 4,
        method: 'tools/call',
        params: { name: 'sampleLLM', arguments: { prompt: 'x' } },
      },
      { 'MCP-Protocol-Version': '2025-11-25' },
    );
    const text = JSON.stringify(body);
    assert.match(text, /sampling/);
    assert.ok(body.error || body.result?.isError, text);
  });

  it('has no GET stream and no DELETE: 405 saying why', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(listener.url, { method, headers: { Accept: 'text/event-stream' } });
      assert.equal(response.status, 405);
      assert.match(await response.text(), /keeps no sessions/);
    }
  });

  it('keeps nothing once a request is answered', async () => {
    await post({ jsonrpc: '2.0', id: 5, method: 'ping' });
    assert.equal(listener.handler.sessions.size, 0);
  });
});
