// The official SDK clients (v1, and v2 both auto-negotiating and pinned to 2026-07-28) and mcpwire's
// 2026-07-28 client run sessions against a fleet: three `mcpwire serve everything --redis` instances
// behind HAProxy (round-robin, no stickiness) on redis-server, all started here.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpClient } from '../../src/client/client.js';
import { HttpClientTransport } from '../../src/transport/http/client-transport.js';
import { type Fleet, startFleet } from '../support/fleet-harness.js';

const ACCEPT = { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } } as const;

describe('the official SDK clients and mcpwire 2026-07-28 against a fleet', { timeout: 120_000 }, () => {
  let fleet: Fleet;

  before(async () => {
    fleet = await startFleet(3);
  });

  after(async () => {
    await fleet?.stop();
  });

  it('SDK v1: progress, sampling and elicitation, each crossing instances', async () => {
    const client = new ClientV1(
      { name: 'sdk-v1', version: '1' },
      { capabilities: { sampling: {}, elicitation: { form: {} } } },
    );
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: 'assistant',
      content: { type: 'text', text: 'sampled by v1' },
      model: 'm',
    }));
    client.setRequestHandler(ElicitRequestSchema, async () => ACCEPT);
    await client.connect(new TransportV1(new URL(fleet.url)));
    try {
      const progress: number[] = [];
      const long = await client.callTool(
        { name: 'longRunningOperation', arguments: { duration: 0.3, steps: 3 } },
        undefined,
        { onprogress: (p) => progress.push(p.progress) },
      );
      assert.deepEqual(progress, [1, 2, 3]);
      assert.match(JSON.stringify(long.content), /completed/);
      for (let i = 0; i < 3; i++) {
        const sampled = await client.callTool({ name: 'sampleLLM', arguments: { prompt: `p${i}` } });
        assert.match(JSON.stringify(sampled.content), /sampled by v1/);
        const elicited = await client.callTool({ name: 'test_elicitation', arguments: { message: 'who?' } });
        assert.match(JSON.stringify(elicited.content), /ada@example.com/);
      }
    } finally {
      await client.close();
    }
  });

  for (const mode of ['auto', '2026-07-28'] as const) {
    it(`SDK v2 (${mode}): elicitation rounds answered on whichever instance, requestState signed with the shared key`, async () => {
      const client = new ClientV2(
        { name: 'sdk-v2', version: '2' },
        {
          versionNegotiation: { mode: mode === 'auto' ? 'auto' : { pin: mode } } as never,
          capabilities: { elicitation: { form: {} }, sampling: {} },
        },
      );
      client.setRequestHandler('elicitation/create', async () => ACCEPT);
      client.setRequestHandler('sampling/createMessage', async () => ({
        role: 'assistant',
        content: { type: 'text', text: 'sampled by v2' },
        model: 'm',
      }));
      await client.connect(new TransportV2(new URL(fleet.url)));
      try {
        for (let i = 0; i < 3; i++) {
          const elicited = await client.callTool({
            name: 'test_elicitation',
            arguments: { message: 'who?' },
          });
          assert.match(JSON.stringify(elicited.content), /ada@example.com/);
          const sampled = await client.callTool({ name: 'sampleLLM', arguments: { prompt: `p${i}` } });
          assert.match(JSON.stringify(sampled.content), /sampled by v2/);
        }
      } finally {
        await client.close();
      }
    });
  }

  it('mcpwire 2026-07-28: input_required rounds on any instance, and a subscriptions/listen stream that hears updates', async () => {
    const updates: string[] = [];
    let heard!: () => void;
    const updated = new Promise<void>((resolve) => {
      heard = resolve;
    });
    const client = new McpClient({
      name: 'mcpwire-stateless',
      version: '1',
      era: 'stateless',
      onElicitation: async () => ACCEPT,
      onResourceUpdated: (uri) => {
        updates.push(uri);
        heard();
      },
    });
    await client.connect(new HttpClientTransport(fleet.url));
    try {
      for (let i = 0; i < 3; i++) {
        const elicited = await client.callTool('test_elicitation', { message: 'who?' });
        assert.match(JSON.stringify(elicited.content), /ada@example.com/);
      }
      await client.subscribeResource('test://watched-resource');
      await updated;
      assert.equal(updates[0], 'test://watched-resource');
    } finally {
      await client.close();
    }
  });
});
