// roots/list from the server, answered by the `roots` callback each time it is asked, with
// notifications/roots/list_changed when the user's roots change; declared only with the callback.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpClient } from '../../src/client/client.js';
import type { Root } from '../../src/protocol/types.js';
import { createInMemoryPair } from '../../src/transport/memory.js';
import { connectToFake } from '../support/fake-mcp-server.js';
import { exampleServer } from '../support/stateless-server.js';

describe('McpClient roots', () => {
  it('declares roots with listChanged and answers roots/list from the callback', async () => {
    const roots: Root[] = [{ uri: 'file:///work/project', name: 'project' }];
    const { client, server, initialize } = await connectToFake({ roots: () => roots });
    assert.deepEqual(initialize.params?.capabilities, { roots: { listChanged: true } });
    const response = await server.ask('roots/list');
    assert.deepEqual(response.result, { roots });
    await client.close();
  });

  it('tells the server when the roots change, and answers the next roots/list with the new ones', async () => {
    let roots: Root[] = [{ uri: 'file:///one' }];
    const { client, server } = await connectToFake({ roots: async () => roots });
    assert.deepEqual((await server.ask('roots/list')).result, { roots: [{ uri: 'file:///one' }] });
    roots = [{ uri: 'file:///one' }, { uri: 'file:///two', name: 'two' }];
    client.notifyRootsChanged();
    const changed = await server.notification('notifications/roots/list_changed');
    assert.deepEqual(changed, { jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
    assert.deepEqual((await server.ask('roots/list')).result, { roots });
    await client.close();
  });

  it('bug: sent roots/list_changed to a 2026-07-28 server, which has no such notification (over HTTP a 400 ended the client); now sends nothing', async () => {
    const [clientSide, serverSide] = createInMemoryPair();
    exampleServer().connect(serverSide);
    const sent: unknown[] = [];
    const send = clientSide.send.bind(clientSide);
    clientSide.send = (payload) => {
      sent.push(payload);
      send(payload);
    };
    const client = new McpClient({ name: 'test', version: '1.0.0', roots: () => [{ uri: 'file:///one' }] });
    await client.connect(clientSide);
    assert.equal(client.era, 'stateless');
    client.notifyRootsChanged();
    await client.ping();
    assert.deepEqual(
      sent.filter((m) => (m as { method?: string }).method === 'notifications/roots/list_changed'),
      [],
    );
    await client.close();
  });

  it('sends the server an error when the callback fails', async () => {
    const { client, server } = await connectToFake({
      roots: () => {
        throw new Error('the workspace is not open');
      },
    });
    const response = await server.ask('roots/list');
    assert.equal(response.error?.code, -32603);
    assert.match(response.error?.message ?? '', /the workspace is not open/);
    await client.close();
  });

  it('without the callback declares no roots and answers -32601', async () => {
    const { client, server, initialize } = await connectToFake({
      onSampling: async () => assert.fail('not asked'),
    });
    assert.equal('roots' in (initialize.params!.capabilities as object), false);
    const response = await server.ask('roots/list');
    assert.equal(response.error?.code, -32601);
    await client.close();
  });
});
