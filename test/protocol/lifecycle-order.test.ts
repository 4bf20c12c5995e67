// The order of the lifecycle: ping may come before initialize, nothing else may; notifications/initialized
// opens normal operation, and the server holds its own notifications until then.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpServer } from '../../src/server/server.js';
import { Wire } from '../support/wire.js';

function server(): McpServer {
  const s = new McpServer({ name: 'order', version: '1.0.0' });
  s.tool({ name: 'noop' }, () => ({ content: [] }));
  return s;
}

describe('lifecycle order', () => {
  it('[lifecycle.ping-before-initialize, ping.empty-result] answers ping before initialize', async () => {
    const wire = new Wire(server());
    const response = await wire.request('ping', undefined, 'early');
    assert.deepEqual(response, { jsonrpc: '2.0', id: 'early', result: {} });
    await wire.close();
  });

  for (const [method, params] of [
    ['tools/list', {}],
    ['tools/call', { name: 'noop' }],
    ['resources/list', undefined],
    ['prompts/list', {}],
    ['logging/setLevel', { level: 'info' }],
  ] as const) {
    it(`[lifecycle.initialize-first] refuses ${method} before initialize, saying to initialize first`, async () => {
      const wire = new Wire(server());
      const error = await wire.error(method, params);
      assert.equal(error.code, -32600);
      assert.match(error.message, new RegExp(`"${method}" was sent before "initialize"`));
      assert.match(error.message, /send "initialize" first/);
      await wire.initialize('2025-11-25');
      await wire.result(method, params);
      await wire.close();
    });
  }

  it('[messages.method-not-found] answers an unknown method with -32601, before and after initialize', async () => {
    const wire = new Wire(server());
    assert.equal((await wire.error('tools/frobnicate', {})).code, -32601);
    await wire.initialize('2025-11-25');
    const error = await wire.error('tools/frobnicate', {});
    assert.equal(error.code, -32601);
    assert.match(error.message, /tools\/frobnicate/);
    await wire.close();
  });

  it('[lifecycle.initialized-notification, messages.notification-unanswered] holds list_changed until notifications/initialized, which it does not answer', async () => {
    const s = server();
    const wire = new Wire(s);
    await wire.initialize('2025-11-25', { initialized: false });
    s.tool({ name: 'early' }, () => ({ content: [] }));
    await wire.settle();
    assert.deepEqual(wire.notifications('notifications/tools/list_changed'), []);
    const before = wire.received.length;
    wire.notify('notifications/initialized');
    await wire.settle();
    // Only the ping's answer came back: the notification itself was not answered.
    assert.equal(wire.received.length, before + 1);
    s.tool({ name: 'late' }, () => ({ content: [] }));
    await wire.waitFor((m) => m.method === 'notifications/tools/list_changed');
    await wire.close();
  });
});
