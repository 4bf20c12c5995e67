// resources/subscribe and unsubscribe: notifications/resources/updated for subscribed URIs only, per
// session; the server is told when a URI gains its first subscriber and loses its last.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpServer } from '../../src/server/server.js';
import { HANDSHAKE_REVISIONS } from '../support/spec-validate.js';
import { Wire } from '../support/wire.js';

function server(): { server: McpServer; changes: Array<[string, boolean]> } {
  const changes: Array<[string, boolean]> = [];
  const s = new McpServer({ name: 'subscriptions', version: '1.0.0' });
  s.resource({ uri: 'file:///a.txt', name: 'a' }, (uri) => [{ uri, text: 'a' }]);
  s.resource({ uri: 'file:///b.txt', name: 'b' }, (uri) => [{ uri, text: 'b' }]);
  s.onSubscriptionChange((uri, subscribed) => changes.push([uri, subscribed]));
  return { server: s, changes };
}

describe('resource subscriptions', () => {
  for (const revision of HANDSHAKE_REVISIONS) {
    it(`[resources.subscribe, capabilities.sub-capabilities] notifies updates of subscribed URIs until unsubscribed (${revision})`, async () => {
      const { server: s } = server();
      const wire = await Wire.open(s, revision);
      assert.deepEqual(await wire.result('resources/subscribe', { uri: 'file:///a.txt' }), {});
      s.notifyResourceUpdated('file:///a.txt');
      s.notifyResourceUpdated('file:///b.txt');
      await wire.settle();
      assert.deepEqual(wire.notifications('notifications/resources/updated'), [{ uri: 'file:///a.txt' }]);
      assert.deepEqual(await wire.result('resources/unsubscribe', { uri: 'file:///a.txt' }), {});
      s.notifyResourceUpdated('file:///a.txt');
      await wire.settle();
      assert.equal(wire.notifications('notifications/resources/updated').length, 1);
      await wire.close();
    });
  }

  it('[resources.subscribe] keeps subscriptions per session', async () => {
    const { server: s } = server();
    const subscriber = await Wire.open(s, '2025-11-25');
    const bystander = await Wire.open(s, '2025-11-25');
    await subscriber.result('resources/subscribe', { uri: 'file:///b.txt' });
    s.notifyResourceUpdated('file:///b.txt');
    await subscriber.settle();
    await bystander.settle();
    assert.deepEqual(subscriber.notifications('notifications/resources/updated'), [{ uri: 'file:///b.txt' }]);
    assert.deepEqual(bystander.notifications('notifications/resources/updated'), []);
    await subscriber.close();
    await bystander.close();
  });

  it('[resources.subscribe] tells the server of the first subscriber and the last one leaving, closing included', async () => {
    const { server: s, changes } = server();
    const one = await Wire.open(s, '2025-11-25');
    const two = await Wire.open(s, '2025-06-18');
    await one.result('resources/subscribe', { uri: 'file:///a.txt' });
    await one.result('resources/subscribe', { uri: 'file:///a.txt' });
    await two.result('resources/subscribe', { uri: 'file:///a.txt' });
    assert.deepEqual(changes, [['file:///a.txt', true]]);
    await one.result('resources/unsubscribe', { uri: 'file:///a.txt' });
    assert.deepEqual(changes, [['file:///a.txt', true]]);
    await one.close();
    await two.close();
    assert.deepEqual(changes, [
      ['file:///a.txt', true],
      ['file:///a.txt', false],
    ]);
  });

  it('[resources.subscribe] answers a subscription without a string uri with -32602', async () => {
    const wire = await Wire.open(server().server, '2025-11-25');
    for (const method of ['resources/subscribe', 'resources/unsubscribe']) {
      const error = await wire.error(method, { uri: ['file:///a.txt'] });
      assert.equal(error.code, -32602);
    }
    await wire.close();
  });
});
