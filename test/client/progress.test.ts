// Progress of a call reaches its onProgress, in order, in both eras. A tools/call asks for progress (a
// progress token) even without onProgress, so that progress restarts its timeout, unless that is turned off.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Progress } from '../../src/jsonrpc/connection.js';
import { McpServer } from '../../src/server/server.js';
import { connectToFake, connectToServer, type Message } from '../support/fake-mcp-server.js';

function steppingServer(): McpServer {
  const server = new McpServer({ name: 'steps', version: '1.0.0' });
  server.tool(
    {
      name: 'steps',
      inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
    },
    (args, ctx) => {
      const n = Number(args.n);
      for (let i = 1; i <= n; i++) ctx.progress(i, n, `step ${i}`);
      return { content: [{ type: 'text', text: `${n} steps` }] };
    },
  );
  return server;
}

describe('McpClient progress', () => {
  for (const era of ['handshake', 'stateless'] as const) {
    it(`${era}: reports each step to onProgress, before the result`, async () => {
      const { client, wire } = await connectToServer(steppingServer(), { era });
      const updates: Progress[] = [];
      const result = await client.callTool('steps', { n: 3 }, { onProgress: (p) => updates.push(p) });
      assert.deepEqual(result.content, [{ type: 'text', text: '3 steps' }]);
      assert.deepEqual(updates, [
        { progress: 1, total: 3, message: 'step 1' },
        { progress: 2, total: 3, message: 'step 2' },
        { progress: 3, total: 3, message: 'step 3' },
      ]);
      const call = (wire.sent as Message[]).find((m) => m.method === 'tools/call');
      const token = (call?.params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
      assert.ok(typeof token === 'string' || typeof token === 'number', 'the call asked for progress');
      await client.close();
    });

    it(`${era}: without onProgress, still asks for progress on tools/call (it keeps long calls alive), and none with resetTimeoutOnProgress: false`, async () => {
      for (const reset of [true, false]) {
        const { client, wire } = await connectToServer(steppingServer(), {
          era,
          resetTimeoutOnProgress: reset,
        });
        const result = await client.callTool('steps', { n: 2 });
        assert.deepEqual(result.content, [{ type: 'text', text: '2 steps' }]);
        const call = (wire.sent as Message[]).find((m) => m.method === 'tools/call');
        const token = (call?.params?._meta as Record<string, unknown> | undefined)?.progressToken;
        assert.equal(token !== undefined, reset, `resetTimeoutOnProgress ${reset}: progress token ${token}`);
        assert.equal(
          (wire.peer!.sent as Message[]).filter((m) => m.method === 'notifications/progress').length,
          reset ? 2 : 0,
        );
        await client.close();
      }
    });
  }

  it('routes progress by token to the right one of two calls', async () => {
    const { client, server } = await connectToFake();
    const first: Progress[] = [];
    const second: Progress[] = [];
    const a = client.callTool('a', {}, { onProgress: (p) => first.push(p) });
    const b = client.callTool('b', {}, { onProgress: (p) => second.push(p) });
    const callA = await server.request('tools/call');
    const callB = await server.request('tools/call');
    const tokenOf = (m: Message) => (m.params!._meta as { progressToken: string | number }).progressToken;
    assert.notEqual(tokenOf(callA), tokenOf(callB));
    server.notify('notifications/progress', { progressToken: tokenOf(callB), progress: 5 });
    server.notify('notifications/progress', { progressToken: tokenOf(callA), progress: 0.5, total: 1 });
    server.reply(callA.id, { content: [] });
    server.reply(callB.id, { content: [] });
    await Promise.all([a, b]);
    assert.deepEqual(first, [{ progress: 0.5, total: 1 }]);
    assert.deepEqual(second, [{ progress: 5 }]);
    await client.close();
  });
});
