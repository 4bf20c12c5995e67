// The gateway over three servers: two over stdio (`mcpwire serve everything`, and a small server whose
// `crash` tool kills it mid-call) and one remote (an McpServer of this process on Streamable HTTP).
// Aggregation under one namespace, the filters and renames of the configuration, routing of calls, reads,
// completions and server requests, list_changed, a crash mid-call and the restart after it; and the
// command line on stdio. Needs the build (`npm run build`): the servers run dist/.

import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client as SdkV2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { Client as SdkV1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpClient } from '../../src/client/client.js';
import { parseFilters } from '../../src/gateway/filters.js';
import { type Gateway, openGateway, serveGatewayHttp } from '../../src/gateway/gateway.js';
import { parseConfig } from '../../src/host/config.js';
import { JsonRpcError } from '../../src/jsonrpc/errors.js';
import { McpServer } from '../../src/server/server.js';
import { ChildProcessTransport } from '../../src/transport/child-process.js';
import { HttpClientTransport } from '../../src/transport/http/client-transport.js';
import type { HttpListener } from '../../src/transport/http/listen.js';
import { BIN, REPO_ROOT, textOf } from '../support/peers.js';

const CRASHY = path.join(REPO_ROOT, 'test', 'fixtures', 'host', 'crashy-server.mjs');

function configJson(remoteUrl: string) {
  return {
    mcpServers: {
      everything: {
        command: process.execPath,
        args: [BIN, 'serve', 'everything'],
        tools: { allow: ['test_*'], deny: ['test_error*'], rename: { test_simple_text: 'simple' } },
        prompts: { allow: ['test_simple_prompt'] },
      },
      crashy: { command: process.execPath, args: [CRASHY] },
      remote: {
        url: remoteUrl,
        tools: { deny: ['secret'], rename: { alpha: 'first' } },
      },
    },
  };
}

/** Waits, a bounded number of turns, for something the servers do on their own. */
async function until<T>(what: string, check: () => T | undefined | Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const found = await check();
    if (found !== undefined && found !== false) return found;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('gateway over two stdio servers and a remote one', () => {
  let remote: McpServer;
  let remoteListener: HttpListener;
  let gateway: Gateway;
  let front: HttpListener;
  const clients: McpClient[] = [];
  const changed: string[] = [];
  const hang = { started: () => {}, cancelled: () => {} };

  async function client(era: 'handshake' | 'stateless'): Promise<McpClient> {
    const made = new McpClient({
      name: 'gateway-test',
      version: '1.0.0',
      era,
      timeout: 30_000,
      onListChanged: (list) => changed.push(`${era}:${list}`),
      onSampling: async () => ({ role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'm' }),
    });
    await made.connect(new HttpClientTransport(front.url), { timeout: 30_000 });
    clients.push(made);
    return made;
  }

  before(async () => {
    remote = new McpServer({ name: 'remote', version: '1.0.0' });
    for (const name of ['alpha', 'beta', 'secret']) {
      remote.tool({ name, description: `${name} tool` }, () => ({
        content: [{ type: 'text', text: `${name} ran` }],
      }));
    }
    remote.resource({ uri: 'test://static-text', name: 'clash' }, (uri) => [{ uri, text: 'the remote one' }]);
    remote.tool({ name: 'hang', description: 'Runs until cancelled' }, async (_args, context) => {
      hang.started();
      await new Promise((resolve) => context.signal.addEventListener('abort', resolve, { once: true }));
      hang.cancelled();
      return { content: [{ type: 'text', text: 'cancelled' }] };
    });
    remoteListener = await remote.serveHttp();
    const json = configJson(remoteListener.url);
    gateway = await openGateway(
      { host: parseConfig(json, process.env, REPO_ROOT), filters: parseFilters(json, 'test') },
      {
        info: { name: 'gw', version: '1.0.0' },
        host: { restart: { initialDelay: 50, maxDelay: 200 } },
        pageSize: 5,
      },
    );
    front = await serveGatewayHttp(gateway);
  });

  after(async () => {
    for (const c of clients) await c.close().catch(() => {});
    await front?.close();
    await gateway?.close();
    await remoteListener?.close();
  });

  for (const era of ['handshake', 'stateless'] as const) {
    it(`lists every server's tools under one namespace, filtered and renamed (${era})`, async () => {
      const c = await client(era);
      const names = (await c.listAllTools()).map((t) => t.name).sort();
      assert.ok(names.includes('everything__simple'), 'renamed');
      assert.ok(!names.includes('everything__test_simple_text'), 'the old name is gone');
      assert.ok(!names.some((n) => n.startsWith('everything__test_error')), 'denied');
      assert.ok(names.includes('everything__test_sampling'));
      assert.ok(names.includes('crashy__hello') && names.includes('crashy__crash'));
      assert.ok(names.includes('remote__first') && names.includes('remote__beta'));
      assert.ok(!names.includes('remote__secret') && !names.includes('remote__alpha'));
    });
  }

  it('routes calls, prompts, reads and completions to their servers', async () => {
    const c = await client('handshake');
    assert.equal(textOf(await c.callTool('remote__first')), 'alpha ran');
    assert.match(textOf(await c.callTool('crashy__hello')), /^hello from \d+/);
    assert.match(textOf(await c.callTool('everything__simple')), /\S/);
    await assert.rejects(
      c.callTool('remote__secret'),
      (e: unknown) => e instanceof JsonRpcError && /Unknown tool/.test(e.message),
    );
    await assert.rejects(c.callTool('remote__alpha'), JsonRpcError);
    const prompts = (await c.listAllPrompts()).map((p) => p.name);
    assert.deepEqual(prompts, ['everything__test_simple_prompt']);
    const prompt = await c.getPrompt('everything__test_simple_prompt');
    assert.ok(prompt.messages.length > 0);
    const resources = await c.listAllResources();
    const uris = resources.map((r) => r.uri);
    assert.ok(uris.includes('test://static-text'));
    const wrapped = uris.find((u) => u.startsWith('gateway://remote/'));
    assert.ok(wrapped, 'the second server listing the same URI gets a URI of its own');
    assert.match(JSON.stringify((await c.readResource(wrapped)).contents), /the remote one/);
    assert.match(JSON.stringify((await c.readResource('test://template/5/data')).contents), /5/);
    const templates = await c.listAllResourceTemplates();
    assert.ok(templates.some((t) => t.uriTemplate === 'test://template/{id}/data'));
    const completion = await c.complete({
      ref: { type: 'ref/resource', uri: 'test://template/{id}/data' },
      argument: { name: 'id', value: '4' },
    });
    assert.deepEqual(completion.completion.values, ['42']);
  });

  it('pages every list itself, across servers, with its own cursors', async () => {
    const c = await client('handshake');
    const all = (await c.listAllTools()).map((t) => t.name);
    assert.ok(all.length > 5, `${all.length} tools`);
    const first = await c.listTools();
    assert.equal(first.tools.length, 5);
    assert.equal(typeof first.nextCursor, 'string');
    const pages = [...first.tools];
    for (let cursor = first.nextCursor; cursor !== undefined; ) {
      const page = await c.listTools(cursor);
      pages.push(...page.tools);
      cursor = page.nextCursor;
    }
    assert.deepEqual(
      pages.map((t) => t.name),
      all,
    );
  });

  it("carries a server's sampling request to the client that called, in both eras", async () => {
    for (const era of ['handshake', 'stateless'] as const) {
      const c = await client(era);
      assert.match(textOf(await c.callTool('everything__test_sampling', { prompt: 'hi' })), /sampled/);
    }
  });

  it('serves the official SDK v1 client: the namespace, routing and sampling', async () => {
    const sdk = new SdkV1Client({ name: 'sdk-v1', version: '1.0.0' }, { capabilities: { sampling: {} } });
    sdk.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: 'assistant',
      content: { type: 'text', text: 'v1 sampled' },
      model: 'v1-model',
    }));
    await sdk.connect(new V1Http(new URL(front.url)));
    try {
      const names: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await sdk.listTools(cursor === undefined ? {} : { cursor });
        names.push(...page.tools.map((t) => t.name));
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      assert.ok(names.includes('remote__first') && names.includes('crashy__hello'));
      const first = await sdk.callTool({ name: 'remote__first', arguments: {} });
      assert.match(JSON.stringify(first.content), /alpha ran/);
      const sampled = await sdk.callTool({ name: 'everything__test_sampling', arguments: { prompt: 'hi' } });
      assert.match(JSON.stringify(sampled.content), /v1 sampled/);
    } finally {
      await sdk.close();
    }
  });

  for (const mode of ['auto', 'pinned'] as const) {
    it(`serves the official SDK v2 client (${mode})`, async () => {
      const sdk = new SdkV2Client(
        { name: 'sdk-v2', version: '1.0.0' },
        mode === 'pinned' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
      );
      await sdk.connect(new V2Http(new URL(front.url)));
      try {
        const result = await sdk.callTool({ name: 'remote__beta', arguments: {} });
        assert.match(JSON.stringify(result.content), /beta ran/);
        const prompts = await sdk.listPrompts();
        assert.deepEqual(
          prompts.prompts.map((p) => p.name),
          ['everything__test_simple_prompt'],
        );
        const read = await sdk.readResource({ uri: 'test://template/3/data' });
        assert.match(JSON.stringify(read.contents), /3/);
      } finally {
        await sdk.close();
      }
    });
  }

  for (const era of ['handshake', 'stateless'] as const) {
    it(`carries progress, and a cancellation mid-call to the server, which stays usable (${era}; regression: the front's notifications/cancelled was sent on to every server, and a 2026-07-28 one over HTTP refused it and was lost)`, async () => {
      const c = await client(era);
      const progress: number[] = [];
      const result = await c.callTool(
        'everything__test_tool_with_progress',
        {},
        { onProgress: (p) => progress.push(p.progress) },
      );
      assert.ok(result.content.length > 0);
      assert.ok(progress.length >= 2, `progress came through: ${progress.join(',')}`);
      const started = new Promise<void>((resolve) => {
        hang.started = resolve;
      });
      const cancelled = new Promise<void>((resolve) => {
        hang.cancelled = resolve;
      });
      const controller = new AbortController();
      const call = c.callTool('remote__hang', {}, { signal: controller.signal });
      await started;
      controller.abort();
      await assert.rejects(call);
      await cancelled;
      assert.equal(textOf(await c.callTool('remote__beta')), 'beta ran');
    });
  }

  it("tells clients when a server's list changes", async () => {
    const c = await client('handshake');
    await c.listAllTools();
    changed.length = 0;
    const added = remote.tool({ name: 'gamma' }, () => ({ content: [{ type: 'text', text: 'gamma ran' }] }));
    await until('a tools list_changed', () => changed.includes('handshake:tools') || undefined);
    const names = await until('gamma listed', async () => {
      const listed = (await c.listAllTools()).map((t) => t.name);
      return listed.includes('remote__gamma') ? listed : undefined;
    });
    assert.ok(names.includes('remote__gamma'));
    assert.equal(textOf(await c.callTool('remote__gamma')), 'gamma ran');
    added.remove();
  });

  it('fails a call at once when its server crashes mid-call, restarts it, and the others go on', async () => {
    const c = await client('handshake');
    changed.length = 0;
    await assert.rejects(
      c.callTool('crashy__crash'),
      (e: unknown) =>
        e instanceof JsonRpcError && /server "crashy" ended before it answered "tools\/call"/.test(e.message),
    );
    assert.equal(textOf(await c.callTool('remote__beta')), 'beta ran');
    await until(
      'crashy back',
      () => gateway.host.status().find((s) => s.name === 'crashy')?.state === 'ready' || undefined,
    );
    assert.ok(changed.includes('handshake:tools'), 'clients were told the tools changed');
    assert.match(textOf(await c.callTool('crashy__hello')), /^hello from/);
  });
});

describe('mcpwire gateway CONFIG on stdio (the command line)', () => {
  let dir: string;
  let remote: HttpListener;
  before(async () => {
    const server = new McpServer({ name: 'remote', version: '1.0.0' });
    server.tool({ name: 'alpha' }, () => ({ content: [{ type: 'text', text: 'alpha ran' }] }));
    remote = await server.serveHttp();
    dir = await mkdtemp(path.join(tmpdir(), 'mcpwire-gateway-'));
  });
  after(async () => {
    await remote?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the servers of the file as one, and a bad filter is a usage error', async () => {
    const file = path.join(dir, 'servers.json');
    await writeFile(file, JSON.stringify(configJson(remote.url)));
    const c = new McpClient({ name: 'cli', version: '1.0.0', timeout: 30_000 });
    await c.connect(new ChildProcessTransport({ command: process.execPath, args: [BIN, 'gateway', file] }), {
      timeout: 30_000,
    });
    try {
      assert.equal(textOf(await c.callTool('remote__first')), 'alpha ran');
      assert.match(textOf(await c.callTool('crashy__hello')), /^hello from/);
    } finally {
      await c.close();
    }
    const bad = path.join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify({ mcpServers: { a: { command: 'x', tools: { allow: 'read_*' } } } }));
    const { spawnSync } = await import('node:child_process');
    const run = spawnSync(process.execPath, [BIN, 'gateway', bad], { encoding: 'utf8' });
    assert.equal(run.status, 2);
    assert.match(run.stderr, /"tools"\.allow must be an array of glob strings/);
  });
});
