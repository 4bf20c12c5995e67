// The initialize handshake: what the client asks for, the version the server answers with, and what the
// client learns of the server.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpClient } from '../../src/client/client.js';
import { RequestTimeoutError } from '../../src/jsonrpc/errors.js';
import { HANDSHAKE_VERSIONS, LATEST_HANDSHAKE_VERSION } from '../../src/protocol/versions.js';
import { createInMemoryPair } from '../../src/transport/memory.js';
import { FakeClock } from '../support/fake-clock.js';
import { CLIENT_INFO, connectToFake, FakeServer, rejection } from '../support/fake-mcp-server.js';

describe('McpClient handshake', () => {
  it('asks for the latest revision with its info and no capabilities, then says initialized', async () => {
    const { client, server, initialize } = await connectToFake({ title: 'Client Test' });
    assert.deepEqual(initialize.params, {
      protocolVersion: LATEST_HANDSHAKE_VERSION,
      capabilities: {},
      clientInfo: { ...CLIENT_INFO, title: 'Client Test' },
    });
    assert.deepEqual(server.methods(), ['initialize', 'notifications/initialized']);
    await client.close();
  });

  it('asks for the revision named in its options', async () => {
    const { client, initialize } = await connectToFake({ protocolVersion: '2025-03-26' });
    assert.equal(initialize.params?.protocolVersion, '2025-03-26');
    assert.equal(client.protocolVersion, '2025-03-26');
    await client.close();
  });

  for (const version of HANDSHAKE_VERSIONS) {
    it(`goes on in ${version} when the server answers with it`, async () => {
      const { client, server } = await connectToFake({}, { protocolVersion: version });
      assert.equal(client.protocolVersion, version);
      assert.equal(client.era, 'handshake');
      // And it works: the first request after the handshake is answered.
      const pinged = client.ping();
      server.reply((await server.request('ping')).id, {});
      assert.deepEqual(await pinged, {});
      await client.close();
    });
  }

  it('learns the server info, capabilities and instructions', async () => {
    const capabilities = { tools: { listChanged: true }, logging: {} };
    const serverInfo = { name: 'told', version: '2.3.4', title: 'Told' };
    const { client } = await connectToFake({}, { capabilities, serverInfo, instructions: 'Use it well.' });
    assert.deepEqual(client.serverCapabilities, capabilities);
    assert.deepEqual(client.serverInfo, serverInfo);
    assert.equal(client.instructions, 'Use it well.');
    await client.close();
  });

  it('probes with server/discover first in auto mode, then initializes when the probe fails', async () => {
    const [clientSide, serverSide] = createInMemoryPair();
    const server = new FakeServer(serverSide);
    const client = new McpClient(CLIENT_INFO);
    const connecting = client.connect(clientSide);
    const discover = await server.request('server/discover');
    server.fail(discover.id, -32601, 'Method not found');
    await server.handshake();
    await connecting;
    assert.equal(client.era, 'handshake');
    assert.deepEqual(server.methods(), ['server/discover', 'initialize', 'notifications/initialized']);
    await client.close();
  });

  it('fails connect with a timeout error when initialize is never answered', async (t) => {
    // On the fake clock: the handshake's timeout is shown to fire at 20 ms and not before.
    const clock = new FakeClock().install();
    t.after(() => clock.uninstall());
    const [clientSide, serverSide] = createInMemoryPair();
    const server = new FakeServer(serverSide);
    const client = new McpClient({ ...CLIENT_INFO, era: 'handshake' });
    const failed = rejection(client.connect(clientSide, { timeout: 20 }));
    // When connect settled, on the fake clock: an assertion below fails instead of the test hanging.
    let failedAt: number | undefined;
    failed.then(
      () => {
        failedAt = clock.now;
      },
      () => {},
    );
    await clock.advance(19);
    assert.equal(failedAt, undefined, 'gave up on initialize before its timeout');
    assert.deepEqual(server.methods(), ['initialize']);
    assert.equal(client.closed, undefined);
    await clock.advance(1);
    assert.equal(failedAt, 20, 'connect did not fail at its timeout');
    const error = await failed;
    assert.ok(error instanceof RequestTimeoutError, String(error));
    assert.equal(error.method, 'initialize');
    assert.equal(error.timeoutMs, 20);
    assert.deepEqual(server.methods(), ['initialize', 'notifications/cancelled']);
    await server.closed;
    assert.ok(client.closed, 'a failed handshake ends the transport');
  });

  it('refuses to connect twice', async () => {
    const { client } = await connectToFake();
    const [again] = createInMemoryPair();
    await assert.rejects(client.connect(again), /already connected/);
    await client.close();
  });

  it('closes the transport on close()', async () => {
    const { client, server } = await connectToFake();
    await client.close();
    const reason = await server.closed;
    assert.match(reason.message, /closed/);
    assert.ok(client.closed, 'the client knows it is closed');
  });

  it('answers a ping from the server', async () => {
    const { client, server } = await connectToFake();
    const pong = await server.ask('ping');
    assert.deepEqual(pong, { jsonrpc: '2.0', id: pong.id, result: {} });
    await client.close();
  });
});
