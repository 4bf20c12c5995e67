// The listAll* helpers follow nextCursor to the end: against a real McpServer that pages by two, in both
// eras, each page asked for with the cursor the previous page gave; and a server that repeats a cursor
// gets an error instead of an endless loop.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { McpClient } from '../../src/client/client.js';
import { catalogue } from '../support/catalogue-server.js';
import { connectToFake, connectToServer, type Message, rejection } from '../support/fake-mcp-server.js';

const COUNT = 5;
const PAGE = 2;

const HELPERS = [
  {
    method: 'tools/list',
    all: (c: McpClient) => c.listAllTools(),
    key: (x: unknown) => (x as { name: string }).name,
    expected: (i: number) => `echo_${i}`,
  },
  {
    method: 'resources/list',
    all: (c: McpClient) => c.listAllResources(),
    key: (x: unknown) => (x as { uri: string }).uri,
    expected: (i: number) => `memo://note/${i}`,
  },
  {
    method: 'resources/templates/list',
    all: (c: McpClient) => c.listAllResourceTemplates(),
    key: (x: unknown) => (x as { uriTemplate: string }).uriTemplate,
    expected: (i: number) => `memo://${i}/{name}`,
  },
  {
    method: 'prompts/list',
    all: (c: McpClient) => c.listAllPrompts(),
    key: (x: unknown) => (x as { name: string }).name,
    expected: (i: number) => `greet_${i}`,
  },
];

describe('McpClient pagination helpers', () => {
  for (const era of ['handshake', 'stateless'] as const) {
    for (const helper of HELPERS) {
      it(`${era}: follows ${helper.method} to the last page`, async () => {
        const { client, wire } = await connectToServer(catalogue(COUNT, PAGE), { era });
        const items = await helper.all(client);
        assert.deepEqual(
          items.map(helper.key),
          Array.from({ length: COUNT }, (_, i) => helper.expected(i)),
        );
        // One request per page; each after the first carries the cursor of the page before it.
        const sent = (wire.sent as Message[]).filter((m) => m.method === helper.method);
        const answers = (wire.peer!.sent as Message[]).filter((m) => sent.some((s) => s.id === m.id));
        assert.equal(sent.length, Math.ceil(COUNT / PAGE));
        assert.equal(sent[0]!.params?.cursor, undefined);
        for (let i = 1; i < sent.length; i++) {
          const given = answers.find((a) => a.id === sent[i - 1]!.id)?.result?.nextCursor;
          assert.equal(typeof given, 'string');
          assert.equal(sent[i]!.params?.cursor, given);
        }
        assert.equal(answers.find((a) => a.id === sent.at(-1)!.id)?.result?.nextCursor, undefined);
        await client.close();
      });
    }
  }

  it('stops with an error when the server hands out the same cursor twice', async () => {
    const { client, server } = await connectToFake();
    const listing = client.listAllTools();
    const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });
    server.reply((await server.request('tools/list')).id, { tools: [tool('a')], nextCursor: 'again' });
    server.reply((await server.request('tools/list')).id, { tools: [tool('b')], nextCursor: 'again' });
    const error = await rejection(listing);
    assert.match(error.message, /repeated a tools cursor/);
    assert.equal(server.methods().filter((m) => m === 'tools/list').length, 2);
    await client.close();
  });

  it('takes a page without items as an empty page and goes on', async () => {
    const { client, server } = await connectToFake();
    const listing = client.listAllPrompts();
    server.reply((await server.request('prompts/list')).id, { prompts: [], nextCursor: 'p2' });
    const second = await server.request('prompts/list');
    assert.deepEqual(second.params, { cursor: 'p2' });
    server.reply(second.id, { prompts: [{ name: 'last' }] });
    assert.deepEqual(await listing, [{ name: 'last' }]);
    await client.close();
  });
});
