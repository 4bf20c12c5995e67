// initialize: what its params may and may not be. A missing `capabilities` is tolerated (treated as
// empty); malformed params are -32602; a second initialize is refused.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpServer } from '../../src/server/server.js';
import { Wire } from '../support/wire.js';

function server(): McpServer {
  const s = new McpServer({ name: 'params', version: '1.0.0' });
  s.tool({ name: 'caps' }, (_args, ctx) => ({
    content: [{ type: 'text', text: JSON.stringify(ctx.clientCapabilities) }],
  }));
  s.tool({ name: 'version' }, (_args, ctx) => ({ content: [{ type: 'text', text: ctx.protocolVersion }] }));
  return s;
}

describe('initialize: params', () => {
  it('[lifecycle.missing-capabilities] accepts an initialize without capabilities, as declaring none', async () => {
    const wire = new Wire(server());
    const result = await wire.result('initialize', {
      protocolVersion: '2025-06-18',
      clientInfo: { name: 'loose', version: '0' },
    });
    assert.equal(result.protocolVersion, '2025-06-18');
    wire.notify('notifications/initialized');
    const call = await wire.result<{ content: Array<{ text: string }> }>('tools/call', { name: 'caps' });
    assert.equal(call.content[0]?.text, '{}');
    await wire.close();
  });

  const malformed: Array<[string, unknown, RegExp]> = [
    ['no params at all', undefined, /protocolVersion/],
    ['params that are an array', ['2025-11-25'], /takes an object/],
    ['no protocolVersion', { capabilities: {}, clientInfo: { name: 'c', version: '1' } }, /protocolVersion/],
    ['a numeric protocolVersion', { protocolVersion: 20250618, capabilities: {} }, /protocolVersion/],
    [
      'capabilities that are a string',
      { protocolVersion: '2025-11-25', capabilities: 'all' },
      /capabilities/,
    ],
    ['capabilities that are null', { protocolVersion: '2025-11-25', capabilities: null }, /capabilities/],
    [
      'clientInfo without a name',
      { protocolVersion: '2025-11-25', clientInfo: { version: '1' } },
      /clientInfo/,
    ],
  ];
  for (const [what, params, mentions] of malformed) {
    it(`[lifecycle.invalid-params, messages.error-shape] answers ${what} with -32602`, async () => {
      const wire = new Wire(server());
      const error = await wire.error('initialize', params);
      assert.equal(error.code, -32602);
      assert.match(error.message, mentions);
      // The session is still waiting for a proper initialize.
      const retry = await wire.initialize('2025-11-25');
      assert.equal(retry.result?.protocolVersion, '2025-11-25');
      await wire.close();
    });
  }

  it('[lifecycle.initialize-once] refuses a second initialize and keeps the first revision', async () => {
    const wire = await Wire.open(server(), '2025-03-26');
    const error = await wire.error('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'again', version: '1' },
    });
    assert.equal(error.code, -32600);
    assert.match(error.message, /already initialized/);
    const call = await wire.result<{ content: Array<{ text: string }> }>('tools/call', { name: 'version' });
    assert.equal(call.content[0]?.text, '2025-03-26');
    await wire.close();
  });
});
