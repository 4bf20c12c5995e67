// `mcpwire proxy --http`, the library's proxyHttp: stdio servers (the official server-everything, SDK v1,
// handshake era only; and `mcpwire serve everything`, both eras) behind Streamable HTTP, used by
// mcpwire's client in both eras and by the official SDK v1 and v2 clients (auto and pinned to 2026-07-28),
// over HTTP (proxy --http) and over stdio (proxy --url).
// Needs the build (`npm run build`): bin/mcpwire.js runs dist/.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client as SdkV2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { Client as SdkV1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpClient, type McpClientOptions } from '../../src/client/client.js';
import { type HttpProxy, proxyHttp } from '../../src/gateway/proxy.js';
import { JsonRpcError } from '../../src/jsonrpc/errors.js';
import { ChildProcessTransport } from '../../src/transport/child-process.js';
import { HttpClientTransport } from '../../src/transport/http/client-transport.js';
import { BIN, EVERYTHING_BIN, textOf } from '../support/peers.js';

const answers: Partial<McpClientOptions> = {
  onSampling: async () => ({
    role: 'assistant',
    content: { type: 'text', text: 'a canned answer' },
    model: 'proxy-model',
  }),
  onElicitation: async () => ({
    action: 'accept',
    content: { name: 'Ada Lovelace', check: true, email: 'ada@example.com', number: 7 },
  }),
  roots: () => [{ uri: 'file:///tmp/proxy-root', name: 'proxy root' }],
};

async function startProxy(command: string, args: string[]): Promise<HttpProxy> {
  return proxyHttp(
    {
      open: () => new ChildProcessTransport({ command, args, inheritEnv: true }),
      clientInfo: { name: 'proxy-test', version: '1.0.0' },
    },
    { port: 0 },
  );
}

async function mcpwireClient(
  url: string,
  era: 'handshake' | 'stateless',
  extra: Partial<McpClientOptions> = {},
) {
  const client = new McpClient({
    name: 'through-proxy',
    version: '1.0.0',
    era,
    timeout: 30_000,
    ...answers,
    ...extra,
  });
  await client.connect(new HttpClientTransport(url), { timeout: 30_000 });
  return client;
}

describe('proxy: server-everything (stdio, handshake era) over Streamable HTTP', () => {
  let proxy: HttpProxy;
  before(async () => {
    proxy = await startProxy(EVERYTHING_BIN, []);
  });
  after(async () => {
    await proxy?.close();
  });

  for (const era of ['handshake', 'stateless'] as const) {
    describe(`mcpwire's client, ${era} era`, () => {
      let client: McpClient;
      const updated: string[] = [];
      before(async () => {
        client = await mcpwireClient(proxy.url, era, { onResourceUpdated: (uri) => updated.push(uri) });
      });
      after(async () => {
        await client?.close();
      });

      it('speaks the era it asked for, and sees the server behind the proxy', () => {
        assert.equal(client.era, era);
        assert.equal(client.serverInfo?.name, 'mcp-servers/everything');
      });

      it('lists the tools the server offers a client with these capabilities', async () => {
        const names = (await client.listAllTools()).map((t) => t.name);
        for (const name of [
          'echo',
          'trigger-sampling-request',
          'trigger-elicitation-request',
          'get-roots-list',
        ])
          assert.ok(names.includes(name), name);
      });

      it('calls a tool, with progress', async () => {
        assert.equal(textOf(await client.callTool('echo', { message: 'hi' })), 'Echo: hi');
        const progress: number[] = [];
        const result = await client.callTool(
          'trigger-long-running-operation',
          { duration: 0.2, steps: 4 },
          { onProgress: (p) => progress.push(p.progress) },
        );
        assert.match(textOf(result), /Long running operation completed/);
        assert.deepEqual(progress, [1, 2, 3, 4]);
      });

      it('carries sampling and elicitation from the server to the client', async () => {
        const sampled = await client.callTool('trigger-sampling-request', { prompt: 'hello', maxTokens: 10 });
        assert.match(textOf(sampled), /a canned answer/);
        const elicited = await client.callTool('trigger-elicitation-request', {});
        assert.match(textOf(elicited), /Ada Lovelace/);
        const roots = await client.callTool('get-roots-list', {});
        assert.match(textOf(roots), /proxy-root/);
      });

      it('pages resources, reads them, completes and gets prompts', async () => {
        const first = await client.listResources();
        assert.ok(first.resources.length > 0);
        if (first.nextCursor) {
          const next = await client.listResources(first.nextCursor);
          assert.ok(next.resources.length > 0, 'the cursor goes through');
        }
        const read = await client.readResource('demo://resource/dynamic/text/7');
        assert.match(JSON.stringify(read.contents), /Resource 7/);
        const completion = await client.complete({
          ref: { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' },
          argument: { name: 'resourceId', value: '7' },
        });
        assert.deepEqual(completion.completion.values, ['7']);
        const prompt = await client.getPrompt('args-prompt', { city: 'Paris' });
        assert.match(JSON.stringify(prompt.messages), /Paris/);
        await assert.rejects(client.readResource('demo://resource/dynamic/text/zero'), JsonRpcError);
      });

      it('carries resource updates to a subscriber', async () => {
        const uri = 'demo://resource/static/document/features.md';
        await client.subscribeResource(uri);
        await client.callTool('toggle-subscriber-updates', {});
        for (let i = 0; i < 200 && !updated.includes(uri); i++) await new Promise((r) => setTimeout(r, 50));
        await client.callTool('toggle-subscriber-updates', {});
        assert.ok(updated.includes(uri), 'an update came through');
      });

      it('cancels a call mid-way', async () => {
        const controller = new AbortController();
        const call = client.callTool(
          'trigger-long-running-operation',
          { duration: 30, steps: 30 },
          { signal: controller.signal, onProgress: () => controller.abort() },
        );
        await assert.rejects(call);
        assert.equal(textOf(await client.callTool('echo', { message: 'after' })), 'Echo: after');
      });
    });
  }

  it('serves the official SDK v1 client, with sampling', async () => {
    const client = new SdkV1Client({ name: 'sdk-v1', version: '1.0.0' }, { capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: 'assistant',
      content: { type: 'text', text: 'v1 answer' },
      model: 'v1-model',
    }));
    await client.connect(new V1Http(new URL(proxy.url)));
    try {
      const tools = await client.listTools();
      assert.ok(tools.tools.some((t) => t.name === 'trigger-sampling-request'));
      const result = await client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'x' } });
      assert.match(JSON.stringify(result.content), /v1 answer/);
    } finally {
      await client.close();
    }
  });

  for (const mode of ['auto', 'pinned'] as const) {
    it(`serves the official SDK v2 client (${mode})`, async () => {
      const client = new SdkV2Client(
        { name: 'sdk-v2', version: '1.0.0' },
        mode === 'pinned' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
      );
      await client.connect(new V2Http(new URL(proxy.url)));
      try {
        const result = await client.callTool({ name: 'echo', arguments: { message: 'v2' } });
        assert.match(JSON.stringify(result.content), /Echo: v2/);
        const prompts = await client.listPrompts();
        assert.ok(prompts.prompts.length > 0);
      } finally {
        await client.close();
      }
    });
  }
});

describe('proxy: mcpwire serve everything (both eras) over Streamable HTTP', () => {
  let proxy: HttpProxy;
  before(async () => {
    proxy = await startProxy(process.execPath, [BIN, 'serve', 'everything']);
  });
  after(async () => {
    await proxy?.close();
  });

  for (const era of ['handshake', 'stateless'] as const) {
    it(`carries sampling and elicitation to mcpwire's client (${era} front)`, async () => {
      const client = await mcpwireClient(proxy.url, era);
      try {
        const sampled = await client.callTool('test_sampling', { prompt: 'hi' });
        assert.match(textOf(sampled), /a canned answer/);
        const elicited = await client.callTool('test_elicitation', { message: 'who?' });
        assert.match(textOf(elicited), /accept/);
      } finally {
        await client.close();
      }
    });
  }

  it('serves the SDK v1 client with elicitation', async () => {
    const client = new SdkV1Client(
      { name: 'sdk-v1', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: 'accept',
      content: { username: 'ada' },
    }));
    await client.connect(new V1Http(new URL(proxy.url)));
    try {
      const result = await client.callTool({ name: 'test_elicitation', arguments: { message: 'who?' } });
      assert.match(JSON.stringify(result.content), /accept/);
    } finally {
      await client.close();
    }
  });
});

describe('proxy --url: a remote server as a stdio server (the command line)', () => {
  let remote: HttpProxy;
  before(async () => {
    // A remote server that speaks only the handshake era: server-everything behind the proxy's HTTP side.
    remote = await startProxy(EVERYTHING_BIN, []);
  });
  after(async () => {
    await remote?.close();
  });

  it('serves the official SDK v1 client over stdio, with sampling', async () => {
    const client = new SdkV1Client({ name: 'sdk-v1', version: '1.0.0' }, { capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: 'assistant',
      content: { type: 'text', text: 'v1 over stdio' },
      model: 'v1-model',
    }));
    await client.connect(
      new V1Stdio({ command: process.execPath, args: [BIN, 'proxy', '--url', remote.url], stderr: 'pipe' }),
    );
    try {
      const echoed = await client.callTool({ name: 'echo', arguments: { message: 'v1' } });
      assert.match(JSON.stringify(echoed.content), /Echo: v1/);
      const sampled = await client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'x' } });
      assert.match(JSON.stringify(sampled.content), /v1 over stdio/);
    } finally {
      await client.close();
    }
  });

  for (const mode of ['auto', 'pinned'] as const) {
    it(`serves the official SDK v2 client over stdio (${mode})`, async () => {
      const client = new SdkV2Client(
        { name: 'sdk-v2', version: '1.0.0' },
        mode === 'pinned' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
      );
      await client.connect(
        new V2Stdio({ command: process.execPath, args: [BIN, 'proxy', '--url', remote.url], stderr: 'pipe' }),
      );
      try {
        const result = await client.callTool({ name: 'echo', arguments: { message: 'v2' } });
        assert.match(JSON.stringify(result.content), /Echo: v2/);
        const prompts = await client.listPrompts();
        assert.ok(prompts.prompts.length > 0);
      } finally {
        await client.close();
      }
    });
  }

  for (const era of ['handshake', 'stateless'] as const) {
    it(`serves mcpwire's client over stdio in the ${era} era, sampling included`, async () => {
      const client = new McpClient({
        name: 'stdio-front',
        version: '1.0.0',
        era,
        timeout: 30_000,
        ...answers,
      });
      await client.connect(
        new ChildProcessTransport({ command: process.execPath, args: [BIN, 'proxy', '--url', remote.url] }),
        { timeout: 30_000 },
      );
      try {
        assert.equal(client.era, era);
        assert.equal(textOf(await client.callTool('echo', { message: 'far' })), 'Echo: far');
        const sampled = await client.callTool('trigger-sampling-request', { prompt: 'hello', maxTokens: 10 });
        assert.match(textOf(sampled), /a canned answer/);
      } finally {
        await client.close();
      }
    });
  }
});
