// Resource updates reach onResourceUpdated for the resources the client subscribed to, and stop after it
// unsubscribes: resources/subscribe in the handshake era, the subscriptions/listen stream in the stateless era.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpServer } from '../../src/server/server.js';
import { connectToFake, connectToServer } from '../support/fake-mcp-server.js';

function notesServer(): McpServer {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  for (const n of ['a', 'b']) {
    server.resource({ uri: `memo://${n}`, name: n }, (uri) => [{ uri, text: n }]);
  }
  return server;
}

/** Updates collected; `next()` resolves with the URI of the next one. */
function updates() {
  const seen: string[] = [];
  const waiting: Array<(uri: string) => void> = [];
  return {
    seen,
    onResourceUpdated: (uri: string) => {
      seen.push(uri);
      waiting.shift()?.(uri);
    },
    next: () => new Promise<string>((resolve) => waiting.push(resolve)),
  };
}

describe('McpClient resource updates', () => {
  for (const era of ['handshake', 'stateless'] as const) {
    it(`${era}: told about a subscribed resource, not about others, and no more after unsubscribing`, async () => {
      const server = notesServer();
      const watch = updates();
      const subscribed: string[] = [];
      server.onSubscriptionChange((uri, on) => {
        if (on) subscribed.push(uri);
        else subscribed.splice(subscribed.indexOf(uri), 1);
      });
      let acknowledged!: () => void;
      const ack = () =>
        new Promise<void>((resolve) => {
          acknowledged = resolve;
        });
      const listening = ack();
      const { client } = await connectToServer(server, {
        era,
        onResourceUpdated: watch.onResourceUpdated,
        onNotification: (method) => {
          if (method === 'notifications/subscriptions/acknowledged') acknowledged();
        },
      });
      await client.subscribeResource('memo://a');
      if (era === 'stateless') await listening;
      assert.deepEqual(subscribed, ['memo://a'], 'the server knows of the subscription');

      const update = watch.next();
      server.notifyResourceUpdated('memo://b');
      server.notifyResourceUpdated('memo://a');
      assert.equal(await update, 'memo://a');

      await client.unsubscribeResource('memo://a');
      // A round trip makes sure the server has seen the unsubscription (or the end of the listen stream).
      await client.ping();
      assert.deepEqual(subscribed, [], 'the server knows the subscription ended');
      server.notifyResourceUpdated('memo://a');
      await client.ping();
      assert.deepEqual(watch.seen, ['memo://a'], 'nothing after unsubscribing');
      await client.close();
    });
  }

  it('passes the URI of each notifications/resources/updated on', async () => {
    const watch = updates();
    const { client, server } = await connectToFake({ onResourceUpdated: watch.onResourceUpdated });
    const update = watch.next();
    server.notify('notifications/resources/updated', { uri: 'file:///x/y.txt' });
    assert.equal(await update, 'file:///x/y.txt');
    await client.close();
  });
});
