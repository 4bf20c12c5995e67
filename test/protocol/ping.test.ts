// ping: an empty result, promptly, in every revision and whatever else is going on.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpServer } from '../../src/server/server.js';
import { HANDSHAKE_REVISIONS } from '../support/spec-validate.js';
import { deferred, Wire } from '../support/wire.js';

describe('ping', () => {
  for (const revision of HANDSHAKE_REVISIONS) {
    it(`[ping.empty-result, messages.response-id] answers with an empty result and the request's id (${revision})`, async () => {
      const wire = await Wire.open(new McpServer({ name: 'ping', version: '1.0.0' }), revision);
      for (const id of [0, 'ping-1', -5, 2 ** 40]) {
        assert.deepEqual(await wire.request('ping', undefined, id), { jsonrpc: '2.0', id, result: {} });
      }
      assert.deepEqual(await wire.request('ping', {}, 'with-params'), {
        jsonrpc: '2.0',
        id: 'with-params',
        result: {},
      });
      await wire.close();
    });
  }

  it('[ping.empty-result] answers while a tool call is still running', async () => {
    const release = deferred();
    const s = new McpServer({ name: 'ping', version: '1.0.0' });
    s.tool({ name: 'blocked' }, async () => {
      await release.promise;
      return { content: [] };
    });
    const wire = await Wire.open(s, '2025-11-25');
    const call = wire.request('tools/call', { name: 'blocked' });
    assert.deepEqual((await wire.request('ping')).result, {});
    release.resolve();
    assert.ok((await call).result);
    await wire.close();
  });
});
