// cacheLists: the lists a client fetched are kept and shared, and fetched again when the server says
// they changed; onListChanged then gets the fresh items. Without it, every call fetches. Both eras.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ListName } from '../../src/client/client.js';
import { McpServer } from '../../src/server/server.js';
import { connectToServer, sentRequests } from '../support/fake-mcp-server.js';

function server(): McpServer {
  const s = new McpServer({ name: 'cached', version: '1.0.0' });
  s.tool({ name: 'first' }, () => ({ content: [] }));
  return s;
}

/** The changes onListChanged reports; `next()` resolves with the next one. */
function watcher() {
  const queue: Array<{ list: ListName; items: unknown[] | undefined }> = [];
  let wake: (() => void) | undefined;
  return {
    onListChanged: (list: ListName, items?: unknown[]) => {
      queue.push({ list, items });
      wake?.();
    },
    async next() {
      while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      return queue.shift()!;
    },
  };
}

const toolLists = (wire: Parameters<typeof sentRequests>[0]) =>
  sentRequests(wire).filter((r) => r.method === 'tools/list').length;

describe('McpClient cacheLists', () => {
  for (const era of ['handshake', 'stateless'] as const) {
    it(`${era}: one fetch serves every caller, and a change fetches once more and reports the fresh list`, async () => {
      const mcp = server();
      const watch = watcher();
      let acknowledged!: () => void;
      const listening = new Promise<void>((resolve) => {
        acknowledged = resolve;
      });
      const { client, wire } = await connectToServer(mcp, {
        era,
        cacheLists: true,
        onListChanged: watch.onListChanged,
        onNotification: (method) => {
          if (method === 'notifications/subscriptions/acknowledged') acknowledged();
        },
      });
      // In the stateless era, changes come on the listen stream: it must be open before the change.
      if (era === 'stateless') await listening;
      const [a, b] = await Promise.all([client.listAllTools(), client.listAllTools()]);
      assert.deepEqual(
        a.map((t) => t.name),
        ['first'],
      );
      assert.equal(a, b, 'both callers got the one fetched list');
      assert.equal(toolLists(wire), 1);

      mcp.tool({ name: 'second' }, () => ({ content: [] }));
      const change = await watch.next();
      assert.equal(change.list, 'tools');
      assert.deepEqual(
        (change.items as Array<{ name: string }>).map((t) => t.name),
        ['first', 'second'],
      );
      assert.equal(toolLists(wire), 2, 'the change fetched the list again, once');
      assert.deepEqual(
        (await client.listAllTools()).map((t) => t.name),
        ['first', 'second'],
      );
      assert.equal(toolLists(wire), 2, 'and later calls are answered from it');
      await client.close();
    });
  }

  it('without cacheLists, every call fetches, and onListChanged gets no items', async () => {
    const mcp = server();
    const watch = watcher();
    const { client, wire } = await connectToServer(mcp, { onListChanged: watch.onListChanged });
    await client.listAllTools();
    await client.listAllTools();
    assert.equal(toolLists(wire), 2);
    mcp.tool({ name: 'second' }, () => ({ content: [] }));
    assert.deepEqual(await watch.next(), { list: 'tools', items: undefined });
    assert.equal(toolLists(wire), 2, 'nothing was fetched on its own');
    await client.close();
  });

  it('a list never fetched is not fetched on a change either', async () => {
    const mcp = server();
    const watch = watcher();
    const { client, wire } = await connectToServer(mcp, {
      cacheLists: true,
      onListChanged: watch.onListChanged,
    });
    mcp.tool({ name: 'second' }, () => ({ content: [] }));
    assert.deepEqual(await watch.next(), { list: 'tools', items: undefined });
    assert.equal(toolLists(wire), 0);
    await client.close();
  });
});
