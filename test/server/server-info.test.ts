// serverInfo on the wire is the server's Implementation (name, version, title...) and nothing else: the
// McpServer options that configure the server itself stay off the wire, in both eras.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpServer } from '../../src/server/server.js';
import { Wire } from '../support/wire.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

function configured(): McpServer {
  return new McpServer({
    name: 'configured',
    version: '1.0.0',
    title: 'Configured',
    instructions: 'Read the docs.',
    pageSize: 5,
    capabilities: { logging: {} },
    timeout: 1000,
    onProblem: () => {},
    cache: { ttlMs: 60_000, cacheScope: 'public' },
  });
}

describe('serverInfo', () => {
  it('regression: the cache option does not leak into serverInfo of the initialize result', async () => {
    const wire = new Wire(configured());
    const response = await wire.initialize('2025-11-25');
    assert.deepEqual(response.result?.serverInfo, {
      name: 'configured',
      version: '1.0.0',
      title: 'Configured',
    });
    await wire.close();
  });

  it('regression: the cache option does not leak into the serverInfo of stateless results', async () => {
    const wire = new Wire(configured());
    // No handshake: the answer is checked against the stateless revision's schema.
    wire.version = '2026-07-28';
    const result = await wire.result<{ _meta: Record<string, unknown> }>('server/discover', { _meta: META });
    assert.deepEqual(result._meta['io.modelcontextprotocol/serverInfo'], {
      name: 'configured',
      version: '1.0.0',
      title: 'Configured',
    });
    await wire.close();
  });
});
