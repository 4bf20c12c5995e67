// A server's list changes reach onListChanged with the list's name: as plain notifications in the
// handshake era, and on the subscriptions/listen stream the client opens for them in the stateless era.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { McpClient } from '../../src/client/client.js';
import { McpServer } from '../../src/server/server.js';
import { connectToFake, connectToServer, type Message } from '../support/fake-mcp-server.js';

type List = 'tools' | 'resources' | 'prompts';

/** Collects list changes; `next()` resolves with the first one after the call, `count(n)` at the n-th. */
function changes() {
  const seen: List[] = [];
  const waiting: Array<{ n: number; resolve: () => void }> = [];
  const count = (n: number) =>
    new Promise<void>((resolve) => {
      if (seen.length >= n) resolve();
      else waiting.push({ n, resolve });
    });
  return {
    seen,
    onListChanged: (list: List) => {
      seen.push(list);
      for (const w of waiting.filter((w) => w.n <= seen.length)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
    },
    count,
    next: () => {
      const n = seen.length + 1;
      return count(n).then(() => seen[n - 1]!);
    },
  };
}

function emptyServer(): McpServer {
  // Declares all three lists up front, so that the stateless era's listen honours them all.
  return new McpServer({
    name: 'growing',
    version: '1.0.0',
    capabilities: {
      tools: { listChanged: true },
      resources: { listChanged: true },
      prompts: { listChanged: true },
    },
  });
}

/** Registers one of each, then removes the tool: five changes, awaited one by one. */
async function growAndShrink(
  server: McpServer,
  client: McpClient,
  next: () => Promise<List>,
): Promise<List[]> {
  const got: List[] = [];
  let change = next();
  const tool = server.tool({ name: 'late_tool' }, () => ({ content: [] }));
  got.push(await change);
  change = next();
  server.resource({ uri: 'memo://late', name: 'late' }, () => [{ uri: 'memo://late', text: '' }]);
  got.push(await change);
  change = next();
  server.prompt({ name: 'late_prompt' }, () => ({ messages: [] }));
  got.push(await change);
  change = next();
  tool.remove();
  got.push(await change);
  // The lists really changed: the client sees the new ones.
  assert.deepEqual(
    (await client.listAllPrompts()).map((p) => p.name),
    ['late_prompt'],
  );
  assert.deepEqual(await client.listAllTools(), []);
  return got;
}

describe('McpClient list changes', () => {
  it('handshake: passes each list_changed notification on, by list', async () => {
    const server = emptyServer();
    const watch = changes();
    const { client } = await connectToServer(server, { onListChanged: watch.onListChanged });
    assert.deepEqual(await growAndShrink(server, client, watch.next), [
      'tools',
      'resources',
      'prompts',
      'tools',
    ]);
    await client.close();
  });

  it('stateless: listens for list changes from connect on, and passes them on', async () => {
    const server = emptyServer();
    const watch = changes();
    let acknowledged!: () => void;
    const listening = new Promise<void>((resolve) => {
      acknowledged = resolve;
    });
    const { client, wire } = await connectToServer(server, {
      era: 'stateless',
      onListChanged: watch.onListChanged,
      onNotification: (method) => {
        if (method === 'notifications/subscriptions/acknowledged') acknowledged();
      },
    });
    await listening;
    const listen = (wire.sent as Message[]).find((m) => m.method === 'subscriptions/listen');
    assert.deepEqual(listen?.params?.notifications, {
      toolsListChanged: true,
      resourcesListChanged: true,
      promptsListChanged: true,
    });
    assert.deepEqual(await growAndShrink(server, client, watch.next), [
      'tools',
      'resources',
      'prompts',
      'tools',
    ]);
    await client.close();
  });

  it('stateless: opens no listen stream without onListChanged', async () => {
    const { client, wire } = await connectToServer(emptyServer(), { era: 'stateless' });
    await client.ping();
    assert.deepEqual(
      (wire.sent as Message[]).map((m) => m.method),
      ['server/discover', 'server/discover'],
    );
    await client.close();
  });

  it('maps each notification method to its list', async () => {
    const watch = changes();
    const { client, server } = await connectToFake({ onListChanged: watch.onListChanged });
    server.notify('notifications/prompts/list_changed');
    server.notify('notifications/resources/list_changed');
    server.notify('notifications/tools/list_changed');
    await watch.count(3);
    assert.deepEqual(watch.seen, ['prompts', 'resources', 'tools']);
    await client.close();
  });
});
