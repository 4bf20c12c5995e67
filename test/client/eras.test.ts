// The client in both eras: it probes with server/discover, falls back to initialize on any other answer
// or a timeout, remembers the era, carries the envelope, and answers input_required rounds through the
// same callbacks that answer a handshake-era server's requests.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpClient, type McpClientOptions } from '../../src/client/client.js';
import { Connection } from '../../src/jsonrpc/connection.js';
import { JsonRpcError } from '../../src/jsonrpc/errors.js';
import type { Transport, TransportHandlers } from '../../src/jsonrpc/transport.js';
import { createInMemoryPair } from '../../src/transport/memory.js';
import { FakeClock } from '../support/fake-clock.js';
import { cites } from '../support/requirements.js';
import { exampleServer } from '../support/stateless-server.js';

const callbacks: Partial<McpClientOptions> = {
  onElicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }),
  onSampling: async () => ({ role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'm' }),
  roots: () => [{ uri: 'file:///one' }],
};

async function clientFor(options: Partial<McpClientOptions> = {}): Promise<McpClient> {
  const [clientSide, serverSide] = createInMemoryPair();
  exampleServer().connect(serverSide);
  const client = new McpClient({ name: 'test', version: '1.0.0', ...callbacks, ...options });
  await client.connect(clientSide);
  return client;
}

/** A handshake-era server written by hand: it answers server/discover the way `answerDiscover` says. */
function legacyServer(answerDiscover: 'error' | 'never'): {
  transport: ReturnType<typeof createInMemoryPair>[0];
  seen: string[];
} {
  const [clientSide, serverSide] = createInMemoryPair();
  const seen: string[] = [];
  const server = new Connection(serverSide);
  server.onOtherRequest((params, ctx) => {
    seen.push(ctx.method);
    if (ctx.method === 'server/discover') {
      if (answerDiscover === 'never') return new Promise(() => {});
      throw new JsonRpcError(-32601, 'Method not found');
    }
    if (ctx.method === 'initialize') {
      return {
        protocolVersion: '2025-06-18',
        capabilities: { tools: {} },
        serverInfo: { name: 'old', version: '0.9' },
      };
    }
    if (ctx.method === 'tools/list')
      return { tools: [], echoedMeta: (params as { _meta?: unknown })._meta ?? null };
    throw new JsonRpcError(-32601, 'Method not found');
  });
  server.start();
  return { transport: clientSide, seen };
}

describe('McpClient eras', () => {
  it(cites([
    'stateless.discover',
    'stateless.era-probe',
  ])`speaks 2026-07-28 to a server that answers server/discover`, async () => {
    const client = await clientFor();
    assert.equal(client.era, 'stateless');
    assert.equal(client.protocolVersion, '2026-07-28');
    assert.deepEqual(client.serverInfo, { name: 'examples', version: '1.0.0' });
    assert.equal(client.instructions, 'Weather and code review.');
    assert.ok((await client.listAllTools()).some((t) => t.name === 'get_weather'));
    await client.close();
  });

  it(cites(
    'stateless.input-required',
  )`answers input_required rounds through its callbacks and returns the final result`, async () => {
    const client = await clientFor();
    const asked = await client.callTool('ask_name');
    assert.deepEqual(asked.content, [{ type: 'text', text: 'hello Ada (accept)' }]);
    const both = await client.callTool('two_questions');
    assert.deepEqual(both.content, [{ type: 'text', text: 'sampled; 1 roots' }]);
    await client.close();
  });

  it('uses the same callbacks for the handshake era, where the server sends requests', async () => {
    const client = await clientFor({ era: 'handshake' });
    assert.equal(client.era, 'handshake');
    assert.equal(client.protocolVersion, '2025-11-25');
    const asked = await client.callTool('ask_name');
    assert.deepEqual(asked.content, [{ type: 'text', text: 'hello Ada (accept)' }]);
    const both = await client.callTool('two_questions');
    assert.deepEqual(both.content, [{ type: 'text', text: 'sampled; 1 roots' }]);
    await client.close();
  });

  it(cites('stateless.era-probe')`falls back to initialize when server/discover gets an error`, async () => {
    const { transport, seen } = legacyServer('error');
    const client = new McpClient({ name: 'test', version: '1.0.0' });
    await client.connect(transport);
    assert.equal(client.era, 'handshake');
    assert.equal(client.protocolVersion, '2025-06-18');
    assert.deepEqual(seen, ['server/discover', 'initialize']);
    const listed = await client.listTools();
    assert.equal(
      (listed as unknown as { echoedMeta: unknown }).echoedMeta,
      null,
      'no envelope in the handshake era',
    );
  });

  it(cites(
    'stateless.era-probe',
  )`falls back to initialize when server/discover is never answered`, async (t) => {
    // On the fake clock: the probe is shown to be given up at its 50 ms timeout and not before.
    const clock = new FakeClock().install();
    t.after(() => clock.uninstall());
    const { transport, seen } = legacyServer('never');
    const client = new McpClient({ name: 'test', version: '1.0.0', discoverTimeout: 50 });
    const connecting = client.connect(transport);
    // When connect settled, on the fake clock (an assertion below fails instead of the test hanging); the
    // handler also keeps a rejection during advance() from being unhandled. Awaited below.
    let connectedAt: number | undefined;
    connecting.then(
      () => {
        connectedAt = clock.now;
      },
      () => {},
    );
    await clock.advance(49);
    assert.deepEqual(seen, ['server/discover'], 'gave up on server/discover before its timeout');
    await clock.advance(1);
    assert.equal(connectedAt, 50, 'did not fall back at the discover timeout');
    await connecting;
    assert.equal(client.era, 'handshake');
    assert.deepEqual(seen, ['server/discover', 'initialize']);
  });

  it('bug: a transport that closed during the probe was reported as "initialize" unanswered; it names server/discover', async () => {
    const [clientSide, serverSide] = createInMemoryPair();
    const seen: string[] = [];
    const server = new Connection(serverSide);
    server.onOtherRequest(async (_params, ctx) => {
      seen.push(ctx.method);
      // What an HTTP client transport does when the authorization is refused: it ends, with the reason.
      await serverSide.close();
      return new Promise(() => {});
    });
    server.start();
    const client = new McpClient({ name: 'test', version: '1.0.0' });
    await assert.rejects(client.connect(clientSide), (error: Error) => {
      assert.equal(error.name, 'ConnectionClosedError');
      assert.match(error.message, /before "server\/discover" was answered/);
      return true;
    });
    assert.deepEqual(seen, ['server/discover'], 'no initialize on a closed connection');
  });

  it('bug: a login longer than the total limit made the probe fall back to initialize; the probe has none', async (t) => {
    const clock = new FakeClock().install();
    t.after(() => clock.uninstall());
    const [clientSide, serverSide] = createInMemoryPair();
    exampleServer().connect(serverSide);
    // The HTTP client transport, as the server's 401 makes it: it holds the probe while its user logs in.
    let handlers: TransportHandlers | undefined;
    let held: (() => void) | undefined;
    const transport: Transport = {
      start(h) {
        handlers = h;
        clientSide.start(h);
      },
      send(payload) {
        if (!held && (payload as { method?: string }).method === 'server/discover') {
          handlers?.held?.(true);
          held = () => clientSide.send(payload);
          return;
        }
        clientSide.send(payload);
      },
      flush: () => clientSide.flush(),
      close: () => clientSide.close(),
    };
    const client = new McpClient({
      name: 'test',
      version: '1.0.0',
      maxTotalTimeout: 1000,
      discoverTimeout: 50,
    });
    const connecting = client.connect(transport);
    connecting.catch(() => {});
    await clock.advance(5000);
    assert.ok(held, 'the probe was not sent');
    handlers?.held?.(false);
    held();
    await clock.advance(0);
    await connecting;
    assert.equal(client.era, 'stateless');
    await client.close();
  });

  it(cites('stateless.era-cache')`remembers the era of a server for the life of the process`, async () => {
    const first = legacyServer('error');
    await new McpClient({ name: 't', version: '1', serverKey: 'old-server' }).connect(first.transport);
    const second = legacyServer('error');
    const client = new McpClient({ name: 't', version: '1', serverKey: 'old-server' });
    await client.connect(second.transport);
    assert.equal(client.era, 'handshake');
    assert.deepEqual(second.seen, ['initialize'], 'no second probe');
  });

  it(cites('stateless.result-type')`treats a result without resultType as complete`, async () => {
    const [clientSide, serverSide] = createInMemoryPair();
    const server = new Connection(serverSide);
    server.onRequest('server/discover', () => ({
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: {} },
    }));
    server.onRequest('tools/call', () => ({ content: [{ type: 'text', text: 'plain' }] }));
    server.start();
    const client = new McpClient({ name: 't', version: '1' });
    await client.connect(clientSide);
    assert.equal(client.era, 'stateless');
    assert.deepEqual((await client.callTool('x')).content, [{ type: 'text', text: 'plain' }]);
  });

  it(cites('stateless.resource-not-found')`gets either resource-not-found code, by era`, async () => {
    for (const era of ['stateless', 'handshake'] as const) {
      const client = await clientFor({ era });
      const error = await client.readResource('file:///missing').then(
        () => assert.fail('expected an error'),
        (e: unknown) => e as JsonRpcError,
      );
      assert.equal(error.code, era === 'stateless' ? -32602 : -32002);
      assert.deepEqual(error.data, { uri: 'file:///missing' });
      await client.close();
    }
  });
});

describe('McpClient probe refused with -32022', () => {
  it('bug: a -32022 naming a version the client speaks made it fall back to initialize; it asks again', async () => {
    const [clientSide, serverSide] = createInMemoryPair();
    const server = new Connection(serverSide);
    const seen: string[] = [];
    server.onOtherRequest((_params, ctx) => {
      seen.push(ctx.method);
      if (ctx.method !== 'server/discover') throw new JsonRpcError(-32601, 'Method not found');
      if (seen.length === 1) {
        throw new JsonRpcError(-32022, 'Unsupported protocol version', {
          supported: ['2026-07-28'],
          requested: '2026-07-28',
        });
      }
      return { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {} };
    });
    server.start();
    const client = new McpClient({ name: 'test', version: '1.0.0' });
    await client.connect(clientSide);
    assert.equal(client.era, 'stateless');
    assert.deepEqual(seen, ['server/discover', 'server/discover']);
    await client.close();
  });
});

describe('McpClient.ping in the stateless era', () => {
  it('bug: ping returned the whole server/discover result although it is typed as empty; it resolves to {}', async () => {
    const client = await clientFor();
    assert.equal(client.era, 'stateless');
    assert.deepEqual(await client.ping(), {});
    await client.close();
  });
});
