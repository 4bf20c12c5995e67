// initialize: version negotiation. A supported version is echoed; anything else, the seed's "0.1.0"
// included, gets the latest revision we speak.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpServer } from '../../src/server/server.js';
import { HANDSHAKE_REVISIONS } from '../support/spec-validate.js';
import { Wire } from '../support/wire.js';

const LATEST = '2025-11-25';

function server(): McpServer {
  return new McpServer({ name: 'negotiation', version: '1.2.3' });
}

describe('initialize: version negotiation', () => {
  for (const revision of HANDSHAKE_REVISIONS) {
    it(`[lifecycle.version-echo, messages.schema-valid] echoes ${revision}, which it supports`, async () => {
      const wire = new Wire(server());
      const response = await wire.initialize(revision);
      assert.equal(response.result?.protocolVersion, revision);
      await wire.close();
    });
  }

  for (const requested of ['0.1.0', '2024-10-07', '2099-01-01', 'latest', '']) {
    it(`[lifecycle.version-fallback] answers ${JSON.stringify(requested)} with the latest revision`, async () => {
      const wire = new Wire(server());
      const response = await wire.initialize(requested);
      assert.equal(response.result?.protocolVersion, LATEST);
      await wire.close();
    });
  }

  it('[lifecycle.negotiated-version] speaks the negotiated revision afterwards, not the latest', async () => {
    const s = server();
    s.tool({ name: 'titled', title: 'A title', inputSchema: { type: 'object' } }, () => ({ content: [] }));
    const wire = await Wire.open(s, '2025-03-26');
    const { tools } = await wire.result<{ tools: Array<Record<string, unknown>> }>('tools/list');
    assert.deepEqual(tools, [{ name: 'titled', inputSchema: { type: 'object' } }]);
    await wire.close();
  });

  it('[lifecycle.initialize-result] answers with the protocol version, capabilities, serverInfo and instructions', async () => {
    const s = new McpServer({ name: 'negotiation', version: '1.2.3', instructions: 'Use it well.' });
    const wire = new Wire(s);
    const response = await wire.initialize(LATEST);
    assert.deepEqual(response, {
      jsonrpc: '2.0',
      id: 1,
      result: {
        protocolVersion: LATEST,
        capabilities: { logging: {} },
        serverInfo: { name: 'negotiation', version: '1.2.3' },
        instructions: 'Use it well.',
      },
    });
    await wire.close();
  });
});
