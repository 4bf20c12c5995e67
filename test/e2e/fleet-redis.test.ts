// An mcpwire HTTP server as a fleet: three instances of `mcpwire serve everything --redis URL` behind a
// real HAProxy (round-robin, no stickiness) on a real redis-server, all started here. Each POST of a
// session lands on the next instance, so every step below crosses instances.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpClient } from '../../src/client/client.js';
import { HttpClientTransport } from '../../src/transport/http/client-transport.js';
import { type Fleet, startFleet } from '../support/fleet-harness.js';

describe('a fleet of three instances behind HAProxy on Redis', { timeout: 120_000 }, () => {
  let fleet: Fleet;

  before(async () => {
    fleet = await startFleet(3);
  });

  after(async () => {
    await fleet?.stop();
  });

  const connect = async (
    options: ConstructorParameters<typeof McpClient>[0] = { name: 't', version: '1' },
  ) => {
    const client = new McpClient({ era: 'handshake', ...options });
    await client.connect(new HttpClientTransport(fleet.url));
    return client;
  };

  it('serves a whole session whose POSTs land on every instance: tools, progress, sampling (the log level: fleet-sessions)', async () => {
    const client = await connect({
      name: 'fleet-test',
      version: '1',
      onSampling: async () => ({
        role: 'assistant',
        content: { type: 'text', text: 'from the client' },
        model: 'm',
      }),
    });
    try {
      const tools = await client.listTools();
      assert.ok(tools.tools.some((t) => t.name === 'longRunningOperation'));
      const progress: number[] = [];
      const long = await client.callTool(
        'longRunningOperation',
        { duration: 0.3, steps: 3 },
        { onProgress: (p) => progress.push(p.progress) },
      );
      assert.deepEqual(progress, [1, 2, 3]);
      assert.match(JSON.stringify(long.content), /completed/);
      // The sampling request goes out on the instance running the call; its answer is POSTed through
      // the balancer to another one, which hands it over on the bus.
      for (let i = 0; i < 3; i++) {
        const sampled = await client.callTool('sampleLLM', { prompt: `hello ${i}` });
        assert.match(JSON.stringify(sampled.content), /from the client/);
      }
      for (let i = 0; i < 3; i++)
        assert.equal((await client.callTool('echo', { message: `m${i}` })).isError, undefined);
    } finally {
      await client.close();
    }
  });

  it('delivers resource updates on the GET stream, wherever it is held', async () => {
    const updates: string[] = [];
    let seen!: () => void;
    const updated = new Promise<void>((resolve) => {
      seen = resolve;
    });
    const client = await connect({
      name: 'fleet-sub',
      version: '1',
      onResourceUpdated: (uri) => {
        updates.push(uri);
        seen();
      },
    });
    try {
      await client.subscribeResource('test://watched-resource');
      await updated;
      assert.equal(updates[0], 'test://watched-resource');
      await client.unsubscribeResource('test://watched-resource');
    } finally {
      await client.close();
    }
  });

  it('ends a session everywhere when it is deleted: the next request on any instance gets 404', async () => {
    const client = await connect();
    const transport = (client as unknown as { transport?: HttpClientTransport }).transport;
    void transport;
    const init = await fetch(fleet.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    });
    const id = init.headers.get('mcp-session-id');
    assert.ok(id);
    await init.text();
    const headers = {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'Mcp-Session-Id': id,
      'MCP-Protocol-Version': '2025-11-25',
    };
    for (let i = 0; i < 3; i++) {
      const ok = await fetch(fleet.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: 10 + i, method: 'ping' }),
      });
      assert.equal(ok.status, 200);
      await ok.text();
    }
    assert.equal((await fetch(fleet.url, { method: 'DELETE', headers })).status, 200);
    for (let i = 0; i < 3; i++) {
      const gone = await fetch(fleet.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: 20 + i, method: 'ping' }),
      });
      assert.equal(gone.status, 404);
      await gone.text();
    }
    await client.close();
  });
});
