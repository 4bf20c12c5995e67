// A handler that throws: an isError result carrying its message, never a crash; a JSON-RPC error it
// throws on purpose goes out as that error.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JsonRpcError } from '../../src/jsonrpc/errors.js';
import { McpServer } from '../../src/server/server.js';
import { HANDSHAKE_REVISIONS } from '../support/spec-validate.js';
import { Wire } from '../support/wire.js';

function server(): McpServer {
  const s = new McpServer({ name: 'throws', version: '1.0.0' });
  s.tool({ name: 'sync_throw' }, () => {
    throw new Error('the disk is on fire');
  });
  s.tool({ name: 'async_throw' }, async () => {
    await Promise.resolve();
    throw new TypeError('cannot read the config');
  });
  s.tool({ name: 'throws_string' }, () => {
    throw 'plain string';
  });
  s.tool({ name: 'protocol_error' }, () => {
    throw new JsonRpcError(-32602, 'Invalid params: that record is locked', { record: 7 });
  });
  s.tool({ name: 'fine' }, () => ({ content: [{ type: 'text', text: 'still here' }] }));
  return s;
}

describe('tool handler errors', () => {
  for (const revision of HANDSHAKE_REVISIONS) {
    it(`[tools.execution-error] turns a thrown error into an isError result with its message (${revision})`, async () => {
      const wire = await Wire.open(server(), revision);
      for (const [name, message] of [
        ['sync_throw', 'the disk is on fire'],
        ['async_throw', 'cannot read the config'],
        ['throws_string', 'plain string'],
      ]) {
        assert.deepEqual(await wire.result('tools/call', { name }), {
          content: [{ type: 'text', text: message }],
          isError: true,
        });
      }
      assert.deepEqual(await wire.result('tools/call', { name: 'fine' }), {
        content: [{ type: 'text', text: 'still here' }],
      });
      await wire.close();
    });
  }

  it('[tools.execution-error, messages.error-shape] sends a JsonRpcError the handler throws as that protocol error', async () => {
    const wire = await Wire.open(server(), '2025-11-25');
    const error = await wire.error('tools/call', { name: 'protocol_error' });
    assert.deepEqual(error, {
      code: -32602,
      message: 'Invalid params: that record is locked',
      data: { record: 7 },
    });
    await wire.close();
  });
});
