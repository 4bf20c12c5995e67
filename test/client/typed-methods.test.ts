// One typed method for every request a client sends: each puts exactly its request on the wire and returns
// the server's result. Against a real McpServer; in the handshake era with the wire checked against the
// 2025-11-25 schema, and in the stateless era with the same results.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { McpClient } from '../../src/client/client.js';
import { catalogue, NAMES } from '../support/catalogue-server.js';
import { connectToServer, sentRequests } from '../support/fake-mcp-server.js';
import { HANDSHAKE, schemaProblems } from '../support/peers.js';

interface Case {
  name: string;
  call: (client: McpClient) => Promise<unknown>;
  /** The request on the wire in the handshake era. */
  method: string;
  params: unknown;
  check: (result: unknown) => void;
  /** The check in the stateless era, where it differs. */
  modernCheck?: (result: unknown) => void;
}

const CASES: Case[] = [
  {
    name: 'ping',
    call: (c) => c.ping(),
    method: 'ping',
    params: undefined,
    check: (r) => assert.deepEqual(withoutMeta(r), {}),
    // The stateless revision has no ping: the client sends server/discover, and ping resolves to {} as in
    // the handshake era (it used to hand out the discover result, although typed as empty).
    modernCheck: (r) => assert.deepEqual(r, {}),
  },
  {
    name: 'listTools',
    call: (c) => c.listTools(),
    method: 'tools/list',
    params: {},
    check: (r) =>
      assert.deepEqual(
        (r as { tools: Array<{ name: string }> }).tools.map((t) => t.name),
        ['echo_0', 'echo_1'],
      ),
  },
  {
    name: 'callTool',
    call: (c) => c.callTool('echo_1', { text: 'hi' }),
    method: 'tools/call',
    // It asks for progress (the token is the request's id), so that progress keeps a long call alive.
    params: { name: 'echo_1', arguments: { text: 'hi' }, _meta: { progressToken: 2 } },
    check: (r) => assert.deepEqual((r as { content: unknown }).content, [{ type: 'text', text: '1: hi' }]),
  },
  {
    name: 'listResources',
    call: (c) => c.listResources(),
    method: 'resources/list',
    params: {},
    check: (r) =>
      assert.deepEqual(
        (r as { resources: Array<{ uri: string }> }).resources.map((x) => x.uri),
        ['memo://note/0', 'memo://note/1'],
      ),
  },
  {
    name: 'listResourceTemplates',
    call: (c) => c.listResourceTemplates(),
    method: 'resources/templates/list',
    params: {},
    check: (r) =>
      assert.deepEqual(
        (r as { resourceTemplates: Array<{ uriTemplate: string }> }).resourceTemplates.map(
          (t) => t.uriTemplate,
        ),
        ['memo://0/{name}', 'memo://1/{name}'],
      ),
  },
  {
    name: 'readResource (fixed)',
    call: (c) => c.readResource('memo://note/1'),
    method: 'resources/read',
    params: { uri: 'memo://note/1' },
    check: (r) =>
      assert.deepEqual((r as { contents: unknown }).contents, [
        { uri: 'memo://note/1', mimeType: 'text/plain', text: 'the text of note 1' },
      ]),
  },
  {
    name: 'readResource (template)',
    call: (c) => c.readResource('memo://0/grace'),
    method: 'resources/read',
    params: { uri: 'memo://0/grace' },
    check: (r) =>
      assert.deepEqual((r as { contents: unknown }).contents, [
        { uri: 'memo://0/grace', text: 'hello grace from 0' },
      ]),
  },
  {
    name: 'subscribeResource',
    call: (c) => c.subscribeResource('memo://note/0'),
    method: 'resources/subscribe',
    params: { uri: 'memo://note/0' },
    check: (r) => assert.deepEqual(withoutMeta(r), {}),
  },
  {
    name: 'unsubscribeResource',
    call: (c) => c.unsubscribeResource('memo://note/0'),
    method: 'resources/unsubscribe',
    params: { uri: 'memo://note/0' },
    check: (r) => assert.deepEqual(withoutMeta(r), {}),
  },
  {
    name: 'listPrompts',
    call: (c) => c.listPrompts(),
    method: 'prompts/list',
    params: {},
    check: (r) =>
      assert.deepEqual(
        (r as { prompts: Array<{ name: string }> }).prompts.map((p) => p.name),
        ['greet_0', 'greet_1'],
      ),
  },
  {
    name: 'getPrompt',
    call: (c) => c.getPrompt('greet_1', { who: 'ada' }),
    method: 'prompts/get',
    params: { name: 'greet_1', arguments: { who: 'ada' } },
    check: (r) =>
      assert.deepEqual((r as { messages: unknown }).messages, [
        { role: 'user', content: { type: 'text', text: 'greet ada (1)' } },
      ]),
  },
  {
    name: 'complete (prompt argument)',
    call: (c) =>
      c.complete({ ref: { type: 'ref/prompt', name: 'greet_0' }, argument: { name: 'who', value: 'a' } }),
    method: 'completion/complete',
    params: { ref: { type: 'ref/prompt', name: 'greet_0' }, argument: { name: 'who', value: 'a' } },
    check: (r) =>
      assert.deepEqual(
        (r as { completion: { values: string[] } }).completion.values,
        NAMES.filter((n) => n.startsWith('a')),
      ),
  },
  {
    name: 'complete (template variable)',
    call: (c) =>
      c.complete({
        ref: { type: 'ref/resource', uri: 'memo://1/{name}' },
        argument: { name: 'name', value: 'g' },
      }),
    method: 'completion/complete',
    params: { ref: { type: 'ref/resource', uri: 'memo://1/{name}' }, argument: { name: 'name', value: 'g' } },
    check: (r) => assert.deepEqual((r as { completion: { values: string[] } }).completion.values, ['grace']),
  },
  {
    name: 'setLoggingLevel',
    call: (c) => c.setLoggingLevel('error'),
    method: 'logging/setLevel',
    params: { level: 'error' },
    check: (r) => assert.deepEqual(withoutMeta(r), {}),
  },
];

function withoutMeta(value: unknown): unknown {
  const { _meta: _ignored, ...rest } = value as Record<string, unknown>;
  return rest;
}

describe('McpClient typed methods, handshake era', () => {
  for (const c of CASES) {
    it(`${c.name} sends ${c.method} and returns its result`, async () => {
      const { client, wire } = await connectToServer(catalogue(2));
      const before = sentRequests(wire).length;
      c.check(await c.call(client));
      assert.deepEqual(sentRequests(wire).slice(before), [{ method: c.method, params: c.params }]);
      await client.close();
    });
  }

  it('listTools(cursor) sends the cursor and gets the next page', async () => {
    const { client, wire } = await connectToServer(catalogue(3, 2));
    const first = await client.listTools();
    assert.ok(first.nextCursor, 'the first page has a cursor');
    const second = await client.listTools(first.nextCursor);
    assert.deepEqual(
      second.tools.map((t) => t.name),
      ['echo_2'],
    );
    assert.equal(second.nextCursor, undefined);
    assert.deepEqual(sentRequests(wire).at(-1), {
      method: 'tools/list',
      params: { cursor: first.nextCursor },
    });
    await client.close();
  });

  it('sends only messages valid under the 2025-11-25 schema', async () => {
    const { client, wire } = await connectToServer(catalogue(2));
    for (const c of CASES) await c.call(client);
    const problems = await schemaProblems(HANDSHAKE, { sent: wire.sent, received: wire.peer!.sent });
    assert.deepEqual(problems, []);
    assert.ok(wire.sent.length > CASES.length, 'every call was checked');
    await client.close();
  });
});

describe('McpClient typed methods, stateless era', () => {
  it('returns what the handshake era returns, for every method', async () => {
    const modern = await connectToServer(catalogue(2), { era: 'stateless' });
    assert.equal(modern.client.era, 'stateless');
    for (const c of CASES) (c.modernCheck ?? c.check)(await c.call(modern.client));
    await modern.client.close();
  });
});
