// Input requests of a 2026-07-28 round trip under the names the handler gives them: asks made together
// go to the client in one input_required result, answers are taken by name, and a state carries on only
// the answers the handler used (never extra keys a client adds).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Connection } from '../../src/jsonrpc/connection.js';
import { McpServer } from '../../src/server/server.js';
import { createInMemoryPair } from '../../src/transport/memory.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, sampling: {}, roots: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1.0.0' },
};

interface Round {
  resultType: string;
  inputRequests?: Record<string, { method: string }>;
  requestState?: string;
  content?: Array<{ text: string }>;
}

function connect(): Connection {
  const server = new McpServer({ name: 'keys', version: '1.0.0' });
  server.tool(
    { name: 'together', description: 'Asks a name and the roots at once, then a color' },
    async (_a, ctx) => {
      const [name, roots] = await Promise.all([
        ctx.elicit(
          { message: 'Name?', requestedSchema: { type: 'object', properties: {} } },
          { key: 'user_name' },
        ),
        ctx.listRoots({ key: 'client_roots' }),
      ]);
      const color = await ctx.elicit(
        { message: 'Color?', requestedSchema: { type: 'object', properties: {} } },
        { key: 'color' },
      );
      return {
        content: [
          {
            type: 'text',
            text: `${String(name.content?.name)} ${roots.roots.length} ${String(color.content?.color)}`,
          },
        ],
      };
    },
  );
  const [clientSide, serverSide] = createInMemoryPair();
  server.connect(serverSide);
  const client = new Connection(clientSide, { timeout: 5000 });
  client.start();
  return client;
}

const call = (client: Connection, extra: Record<string, unknown> = {}) =>
  client.request<Round>('tools/call', { _meta: META, name: 'together', arguments: {}, ...extra });

describe('named input requests', () => {
  it('sends asks made together in one round, under their names, and takes answers by name', async () => {
    const client = connect();
    const first = await call(client);
    assert.equal(first.resultType, 'input_required');
    assert.deepEqual(Object.keys(first.inputRequests!).sort(), ['client_roots', 'user_name']);
    assert.equal(first.inputRequests!.client_roots!.method, 'roots/list');
    const second = await call(client, {
      inputResponses: {
        user_name: { action: 'accept', content: { name: 'Ada' } },
        client_roots: { roots: [{ uri: 'file:///a' }] },
        unrelated: { action: 'accept', content: { x: 1 } },
      },
      requestState: first.requestState,
    });
    assert.deepEqual(Object.keys(second.inputRequests!), ['color']);
    // The state carries the two answers used, not the key the handler never asked for.
    const body = JSON.parse(Buffer.from(second.requestState!.split('.')[1]!, 'base64url').toString()) as {
      a: Record<string, unknown>;
    };
    assert.deepEqual(Object.keys(body.a).sort(), ['client_roots', 'user_name']);
    const done = await call(client, {
      inputResponses: { color: { action: 'accept', content: { color: 'green' } } },
      requestState: second.requestState,
    });
    assert.equal(done.content?.[0]?.text, 'Ada 1 green');
  });

  it('asks again for what a retry left unanswered (a wrong key)', async () => {
    const client = connect();
    const first = await call(client);
    const again = await call(client, {
      inputResponses: { wrong_key: { action: 'accept', content: {} } },
      requestState: first.requestState,
    });
    assert.equal(again.resultType, 'input_required');
    assert.deepEqual(Object.keys(again.inputRequests!).sort(), ['client_roots', 'user_name']);
  });

  it('refuses an answer that is not an object with -32602', async () => {
    const client = connect();
    const error = await call(client, { inputResponses: { user_name: 42 } }).then(
      () => assert.fail('expected -32602'),
      (e: unknown) => e as { code: number; message: string },
    );
    assert.equal(error.code, -32602);
    assert.match(error.message, /inputResponses\["user_name"\] must be an object/);
  });
});
