// A server that answers initialize with a revision the client cannot speak: connect fails with an error
// that names the version, the client does not go on (no notifications/initialized) and it disconnects.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpClient, UnsupportedVersionError } from '../../src/client/client.js';
import { JsonRpcError } from '../../src/jsonrpc/errors.js';
import { HANDSHAKE_VERSIONS } from '../../src/protocol/versions.js';
import { createInMemoryPair } from '../../src/transport/memory.js';
import { CLIENT_INFO, FakeServer, rejection } from '../support/fake-mcp-server.js';

const UNUSABLE: unknown[] = ['1999-01-01', '2026-07-28', 20251125, null, undefined];

describe('McpClient with a server version it cannot use', () => {
  for (const version of UNUSABLE) {
    it(`fails clearly on ${JSON.stringify(version) ?? 'a missing version'} and disconnects`, async () => {
      const [clientSide, serverSide] = createInMemoryPair();
      const server = new FakeServer(serverSide);
      const client = new McpClient({ ...CLIENT_INFO, era: 'handshake' });
      const connecting = client.connect(clientSide);
      const initialize = await server.request('initialize');
      server.reply(initialize.id, {
        protocolVersion: version,
        capabilities: {},
        serverInfo: { name: 'future', version: '9' },
      });
      const error = await rejection(connecting);
      assert.ok(error instanceof UnsupportedVersionError, String(error));
      assert.equal(error.serverVersion, version);
      assert.ok(error.message.includes(String(JSON.stringify(version))), error.message);
      for (const spoken of HANDSHAKE_VERSIONS) assert.ok(error.message.includes(spoken), error.message);
      await server.closed;
      assert.deepEqual(server.methods(), ['initialize'], 'no notifications/initialized');
      assert.ok(client.closed);
      assert.equal(client.protocolVersion, undefined);
    });
  }

  it('a failed initialize closes the transport: a server that answers with an error is not left running', async () => {
    // The specification's example of an initialization error.
    const [clientSide, serverSide] = createInMemoryPair();
    const server = new FakeServer(serverSide);
    const client = new McpClient({ ...CLIENT_INFO, era: 'handshake' });
    const connecting = client.connect(clientSide);
    const initialize = await server.request('initialize');
    const data = { supported: ['2024-11-05'], requested: initialize.params?.protocolVersion };
    server.send({
      jsonrpc: '2.0',
      id: initialize.id,
      error: { code: -32602, message: 'Unsupported protocol version', data },
    });
    const error = await rejection(connecting);
    assert.ok(error instanceof JsonRpcError, String(error));
    assert.equal(error.code, -32602);
    assert.equal(error.message, 'Unsupported protocol version');
    assert.deepEqual(error.data, data);
    await server.closed;
    assert.deepEqual(server.methods(), ['initialize'], 'no notifications/initialized');
  });
});
