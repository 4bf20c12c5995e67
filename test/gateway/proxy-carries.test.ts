// What the proxy carries, checked on a server that speaks 2024-11-05 only (a hand-written stdio server, so
// the test sees exactly what reached it), for a client of 2025-11-25 and one of 2026-07-28: `_meta` both
// ways, log messages, list_changed, pagination cursors, and the server's sampling request (a request to
// the handshake client, an input_required round for the 2026-07-28 one). Then: the shared 2026-07-28
// process ends after --idle-timeout unused and starts again when needed; `proxy --url --header` sends the
// header to the remote server.

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { McpClient } from '../../src/client/client.js';
import { type HttpProxy, proxyHttp } from '../../src/gateway/proxy.js';
import { McpServer } from '../../src/server/server.js';
import { ChildProcessTransport } from '../../src/transport/child-process.js';
import { HttpClientTransport } from '../../src/transport/http/client-transport.js';
import type { HttpListener } from '../../src/transport/http/listen.js';
import { BIN, REPO_ROOT, textOf } from '../support/peers.js';

const OLD = path.join(REPO_ROOT, 'test', 'fixtures', 'gateway', 'old-server.mjs');

describe('proxy: a 2024-11-05 server, for clients of both eras', () => {
  let proxy: HttpProxy;
  const events: string[] = [];
  let onEvent: () => void = () => {};
  before(async () => {
    proxy = await proxyHttp(
      {
        open: () => new ChildProcessTransport({ command: process.execPath, args: [OLD] }),
        clientInfo: { name: 'carries', version: '1.0.0' },
        idleTimeout: 300,
        onEvent: (event) => {
          events.push(`${event.shared ? 'shared' : 'session'} ${event.type}`);
          onEvent();
        },
      },
      { port: 0 },
    );
  });
  after(async () => {
    await proxy?.close();
  });

  for (const era of ['handshake', 'stateless'] as const) {
    it(`carries _meta, logs, list_changed, cursors and sampling (${era} client)`, async () => {
      const logs: string[] = [];
      let toolsChanged: () => void = () => {};
      const told = new Promise<void>((resolve) => {
        toolsChanged = resolve;
      });
      const client = new McpClient({
        name: 'carries',
        version: '1.0.0',
        era,
        timeout: 30_000,
        onLog: (message) => logs.push(String(message.data)),
        onListChanged: (list) => {
          if (list === 'tools') toolsChanged();
        },
        onSampling: async () => ({
          role: 'assistant',
          content: { type: 'text', text: 'by the client' },
          model: 'm',
        }),
      });
      await client.connect(new HttpClientTransport(proxy.url), { timeout: 30_000 });
      try {
        assert.equal(client.era, era);
        await client.setLoggingLevel('debug');
        const meta = await client.request<{
          content: Array<{ text: string }>;
          _meta?: Record<string, unknown>;
        }>('tools/call', { name: 'meta', arguments: {}, _meta: { 'example.com/from-client': 42 } });
        assert.deepEqual(JSON.parse(meta.content[0]!.text), { 'example.com/from-client': 42 });
        assert.equal(meta._meta?.['example.com/from-server'], 'kept');

        assert.equal(textOf(await client.callTool('log')), 'logged');
        assert.deepEqual(logs, ['a log line']);

        const first = await client.listTools();
        assert.deepEqual(
          first.tools.map((t) => t.name),
          ['meta', 'log'],
        );
        assert.equal(typeof first.nextCursor, 'string');
        const second = await client.listTools(first.nextCursor);
        assert.deepEqual(
          second.tools.map((t) => t.name),
          ['change', 'sample'],
        );

        assert.equal(textOf(await client.callTool('sample')), 'sampled: by the client');

        // The server says its tool list changed: a handshake client hears it on its session, a 2026-07-28
        // client on its listen stream.
        assert.equal(textOf(await client.callTool('change')), 'changed');
        await told;
      } finally {
        await client.close();
      }
    });
  }

  it('ends the shared 2026-07-28 process after the idle timeout, and starts it again when needed', async () => {
    const sharedEnded = () => events.filter((e) => e === 'shared ended').length;
    const sharedStarted = () => events.filter((e) => e === 'shared started').length;
    const before = sharedStarted();
    const client = new McpClient({ name: 'idle', version: '1.0.0', era: 'stateless', timeout: 30_000 });
    await client.connect(new HttpClientTransport(proxy.url), { timeout: 30_000 });
    try {
      assert.equal(textOf(await client.callTool('echo', { text: 'one' })), 'one');
      const endedBefore = sharedEnded();
      await new Promise<void>((resolve) => {
        onEvent = () => {
          if (sharedEnded() > endedBefore) resolve();
        };
      });
      assert.equal(textOf(await client.callTool('echo', { text: 'two' })), 'two');
      assert.ok(sharedStarted() > before, 'started again');
    } finally {
      onEvent = () => {};
      await client.close();
    }
  });
});

describe('proxy --url --header: the header reaches the remote server', () => {
  let listener: HttpListener;
  let front: Server;
  let url: string;
  const seen: Array<string | undefined> = [];
  before(async () => {
    const server = new McpServer({ name: 'remote', version: '1.0.0' });
    server.tool({ name: 'hello' }, () => ({ content: [{ type: 'text', text: 'hello' }] }));
    listener = await server.serveHttp();
    // The remote endpoint, with what each request's X-Test header was noted first.
    front = createServer((request, response) => {
      seen.push(request.headers['x-test'] as string | undefined);
      void listener.handler(request, response);
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(front.address() as AddressInfo).port}/mcp`;
  });
  after(async () => {
    front?.closeAllConnections();
    await new Promise((resolve) => front?.close(resolve));
    await listener?.close();
  });

  it('sends it with every request', async () => {
    const client = new McpClient({ name: 'header', version: '1.0.0', timeout: 30_000 });
    await client.connect(
      new ChildProcessTransport({
        command: process.execPath,
        args: [BIN, 'proxy', '--url', url, '--header', 'X-Test: sent by the proxy'],
      }),
      { timeout: 30_000 },
    );
    try {
      assert.equal(textOf(await client.callTool('hello')), 'hello');
    } finally {
      await client.close();
    }
    assert.ok(seen.length > 0);
    assert.ok(
      seen.every((value) => value === 'sent by the proxy'),
      JSON.stringify(seen),
    );
  });
});

describe("proxy: a session idle past --session-timeout ends, and its server's process with it", () => {
  let proxy: HttpProxy;
  const ended: string[] = [];
  let onEnded: () => void = () => {};
  before(async () => {
    proxy = await proxyHttp(
      {
        open: () => new ChildProcessTransport({ command: process.execPath, args: [OLD] }),
        clientInfo: { name: 'idle-session', version: '1.0.0' },
        onEvent: (event) => {
          if (event.type === 'ended' && !event.shared) {
            ended.push(event.detail);
            onEnded();
          }
        },
      },
      { port: 0, sessionIdleTimeout: 300 },
    );
  });
  after(async () => {
    await proxy?.close();
  });

  it('ends the process of a session nobody used for the timeout', async () => {
    const client = new McpClient({ name: 'idle', version: '1.0.0', era: 'handshake', timeout: 30_000 });
    // No GET stream: a session holding one is in use, and never idle.
    await client.connect(new HttpClientTransport(proxy.url, { openStream: false }), { timeout: 30_000 });
    try {
      assert.equal(textOf(await client.callTool('echo', { text: 'once' })), 'once');
      assert.deepEqual(ended, []);
      await new Promise<void>((resolve) => {
        onEnded = resolve;
      });
      assert.equal(ended.length, 1, "the session's own server process ended");
    } finally {
      await client.close().catch(() => {});
    }
  });
});
