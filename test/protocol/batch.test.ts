// JSON-RPC batches: accepted in a 2025-03-26 session only (one array of responses; nothing for a batch
// of notifications), refused with a clear error for each request in every other revision and before
// initialize (which cannot be batched).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpServer } from '../../src/server/server.js';
import { Wire } from '../support/wire.js';

function server(): { server: McpServer; calls: string[] } {
  const calls: string[] = [];
  const s = new McpServer({ name: 'batches', version: '1.0.0' });
  s.tool(
    { name: 'count', inputSchema: { type: 'object', properties: { n: { type: 'number' } } } },
    (args) => {
      calls.push(String(args.n));
      return { content: [{ type: 'text', text: `n=${String(args.n)}` }] };
    },
  );
  return { server: s, calls };
}

const call = (id: number, n: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'count', arguments: { n } },
});

describe('JSON-RPC batches', () => {
  it('[batch.receive, messages.schema-valid] answers a 2025-03-26 batch with one array holding a response per request', async () => {
    const { server: s, calls } = server();
    const wire = await Wire.open(s, '2025-03-26');
    wire.send([
      call(10, 1),
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
      { jsonrpc: '2.0', id: 11, method: 'ping' },
      call(12, 2),
    ]);
    const batch = (await wire.waitForPayload(Array.isArray)) as Array<Record<string, unknown>>;
    assert.deepEqual(
      [...batch].sort((a, b) => Number(a.id) - Number(b.id)),
      [
        { jsonrpc: '2.0', id: 10, result: { content: [{ type: 'text', text: 'n=1' }] } },
        { jsonrpc: '2.0', id: 11, result: {} },
        { jsonrpc: '2.0', id: 12, result: { content: [{ type: 'text', text: 'n=2' }] } },
      ],
    );
    assert.deepEqual(calls.sort(), ['1', '2']);
    await wire.close();
  });

  it('[batch.receive] answers errors inside the batch array, next to the results', async () => {
    const { server: s } = server();
    const wire = await Wire.open(s, '2025-03-26');
    wire.send([
      { jsonrpc: '2.0', id: 21, method: 'no/such/method' },
      { jsonrpc: '2.0', id: 22, method: 'ping' },
    ]);
    const batch = (await wire.waitForPayload(Array.isArray)) as Array<{
      id: number;
      error?: { code: number };
    }>;
    assert.deepEqual(batch.map((r) => [r.id, r.error?.code]).sort(), [
      [21, -32601],
      [22, undefined],
    ]);
    await wire.close();
  });

  it('[batch.receive, messages.notification-unanswered] sends nothing back for a batch of notifications only', async () => {
    const { server: s } = server();
    const wire = await Wire.open(s, '2025-03-26');
    const before = wire.received.length;
    wire.send([
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } },
    ]);
    await wire.settle();
    assert.equal(wire.received.length, before + 1, 'only the ping was answered');
    await wire.close();
  });

  for (const revision of ['2024-11-05', '2025-06-18', '2025-11-25']) {
    it(`[batch.other-revisions, messages.schema-valid] refuses a batch in ${revision} with -32600 for each request, running none`, async () => {
      const { server: s, calls } = server();
      const wire = await Wire.open(s, revision);
      wire.send([call(31, 1), { jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, call(32, 2)]);
      const [first, second] = await Promise.all([wire.responseTo(31), wire.responseTo(32)]);
      for (const response of [first!, second!]) {
        assert.equal(response.error?.code, -32600);
        assert.match(
          response.error.message,
          new RegExp(`batches are not supported in protocol revision ${revision} \\(only in 2025-03-26\\)`),
        );
      }
      assert.equal(wire.received.some(Array.isArray), false, 'no batch response');
      assert.deepEqual(calls, []);
      await wire.close();
    });
  }

  it('[batch.other-revisions] refuses a batch of notifications only with one error (id null)', async () => {
    const { server: s } = server();
    const wire = await Wire.open(s, '2025-11-25');
    wire.send([{ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }]);
    const error = await wire.waitFor((m) => m.id === null);
    assert.equal((error.error as { code: number }).code, -32600);
    await wire.close();
  });

  it('[lifecycle.initialize-not-batched] refuses initialize inside a batch, and initialize still works alone', async () => {
    const { server: s } = server();
    const wire = new Wire(s);
    wire.send([
      {
        jsonrpc: '2.0',
        id: 'init',
        method: 'initialize',
        params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      },
    ]);
    const refused = await wire.responseTo('init');
    assert.equal(refused.error?.code, -32600);
    assert.match(refused.error!.message, /cannot carry "initialize"/);
    const response = await wire.initialize('2025-03-26');
    assert.equal(response.result?.protocolVersion, '2025-03-26');
    await wire.close();
  });
});
