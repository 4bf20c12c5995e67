// The client declares a capability exactly when the callback that serves it is there: in initialize
// (handshake era) and in the envelope of every request (stateless era).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpClient, type McpClientOptions } from '../../src/client/client.js';
import { MetaKey } from '../../src/protocol/stateless.js';
import { createInMemoryPair } from '../../src/transport/memory.js';
import { CLIENT_INFO, connectToFake, FakeServer } from '../support/fake-mcp-server.js';

const CALLBACKS = {
  onSampling: async () => ({
    role: 'assistant' as const,
    content: { type: 'text' as const, text: '' },
    model: 'm',
  }),
  onElicitation: async () => ({ action: 'cancel' as const }),
  roots: () => [],
};
type Name = keyof typeof CALLBACKS;
const NAMES = Object.keys(CALLBACKS) as Name[];

/** Every subset of the three callbacks. */
const SUBSETS: Name[][] = Array.from({ length: 1 << NAMES.length }, (_, bits) =>
  NAMES.filter((_name, i) => bits & (1 << i)),
);

function optionsWith(names: Name[]): Partial<McpClientOptions> {
  return Object.fromEntries(names.map((n) => [n, CALLBACKS[n]]));
}

function expected(names: Name[], url = false): Record<string, unknown> {
  const capabilities: Record<string, unknown> = {};
  if (names.includes('onSampling')) capabilities.sampling = {};
  if (names.includes('onElicitation')) capabilities.elicitation = url ? { form: {}, url: {} } : { form: {} };
  if (names.includes('roots')) capabilities.roots = { listChanged: true };
  return capabilities;
}

describe('McpClient capabilities', () => {
  for (const names of SUBSETS) {
    const label = names.length === 0 ? 'no callbacks' : names.join(' + ');
    it(`handshake: ${label}`, async () => {
      const { client, initialize } = await connectToFake(optionsWith(names));
      assert.deepEqual(initialize.params?.capabilities, expected(names));
      await client.close();
    });

    it(`stateless: ${label}`, async () => {
      const [clientSide, serverSide] = createInMemoryPair();
      const server = new FakeServer(serverSide);
      const client = new McpClient({ ...CLIENT_INFO, ...optionsWith(names) });
      const connecting = client.connect(clientSide);
      const discover = await server.request('server/discover');
      server.reply(discover.id, { supportedVersions: ['2026-07-28'], capabilities: {} });
      await connecting;
      const meta = discover.params?._meta as Record<string, unknown>;
      assert.deepEqual(meta[MetaKey.ClientCapabilities], expected(names));
      await client.close();
    });
  }

  it('declares URL mode elicitation only with elicitationUrl', async () => {
    const { client, initialize } = await connectToFake({
      ...optionsWith(['onElicitation']),
      elicitationUrl: true,
    });
    assert.deepEqual(initialize.params?.capabilities, expected(['onElicitation'], true));
    await client.close();
  });

  it('declares nothing for elicitationUrl without onElicitation', async () => {
    const { client, initialize } = await connectToFake({ elicitationUrl: true });
    assert.deepEqual(initialize.params?.capabilities, {});
    await client.close();
  });
});
