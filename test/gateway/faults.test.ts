// A back server that misbehaves does not take the front down: junk on its stdout (lines that are not
// JSON-RPC, answers to requests nobody sent), a flood of notifications nobody asked for, an answer past
// the back link's size limit (that call fails at once with a clear error). After each, the front still
// answers, and its own protections hold: loopback, Origin checks, the body size limit and the session limit.
// Needs the build (`npm run build`) only for the gateway's host (the fixture is plain Node).

import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { McpClient } from '../../src/client/client.js';
import { parseFilters } from '../../src/gateway/filters.js';
import { type Gateway, openGateway, serveGatewayHttp } from '../../src/gateway/gateway.js';
import { type HttpProxy, proxyHttp } from '../../src/gateway/proxy.js';
import { parseConfig } from '../../src/host/config.js';
import { ChildProcessTransport } from '../../src/transport/child-process.js';
import { HttpClientTransport } from '../../src/transport/http/client-transport.js';
import type { HttpListener } from '../../src/transport/http/listen.js';
import { initializeRequest, POST_HEADERS } from '../support/http-helpers.js';
import { REPO_ROOT, textOf } from '../support/peers.js';

const UNRULY = path.join(REPO_ROOT, 'test', 'fixtures', 'gateway', 'unruly-server.mjs');
const LIMIT = 1024 * 1024;

async function client(url: string, era: 'handshake' | 'stateless'): Promise<McpClient> {
  const made = new McpClient({ name: 'faults', version: '1.0.0', era, timeout: 30_000 });
  await made.connect(new HttpClientTransport(url), { timeout: 30_000 });
  return made;
}

describe('proxy: a back server that writes junk, floods or answers too much', () => {
  let proxy: HttpProxy;
  before(async () => {
    proxy = await proxyHttp(
      {
        open: () =>
          new ChildProcessTransport({ command: process.execPath, args: [UNRULY], maxMessageSize: LIMIT }),
        clientInfo: { name: 'faults', version: '1.0.0' },
      },
      { port: 0, maxSessions: 4, maxBodySize: 64 * 1024 },
    );
  });
  after(async () => {
    await proxy?.close();
  });

  for (const era of ['handshake', 'stateless'] as const) {
    it(`carries the answer through junk and a flood, and fails an oversized answer at once (${era})`, async () => {
      const c = await client(proxy.url, era);
      try {
        assert.equal(textOf(await c.callTool('junk')), 'survived junk');
        assert.equal(textOf(await c.callTool('echo', { text: 'after junk' })), 'after junk');
        assert.equal(textOf(await c.callTool('flood')), 'survived flood');
        assert.equal(textOf(await c.callTool('echo', { text: 'after flood' })), 'after flood');
        await assert.rejects(c.callTool('huge'), /exceeds the maximum message size of 1048576 bytes/);
        assert.equal(textOf(await c.callTool('echo', { text: 'after huge' })), 'after huge');
      } finally {
        await c.close();
      }
    });
  }

  it("keeps the front's own protections: loopback, Origin, body size, sessions", async () => {
    assert.match(proxy.url, /^http:\/\/127\.0\.0\.1:/);
    const evil = await fetch(proxy.url, {
      method: 'POST',
      headers: { ...POST_HEADERS, Origin: 'http://evil.example' },
      body: JSON.stringify(initializeRequest()),
    });
    assert.equal(evil.status, 403);
    const big = await fetch(proxy.url, {
      method: 'POST',
      headers: POST_HEADERS,
      body: JSON.stringify({ ...(initializeRequest() as object), pad: 'x'.repeat(100 * 1024) }),
    });
    assert.equal(big.status, 413);
    const open: McpClient[] = [];
    try {
      for (let i = 0; i < 4; i++) open.push(await client(proxy.url, 'handshake'));
      const refused = await fetch(proxy.url, {
        method: 'POST',
        headers: POST_HEADERS,
        body: JSON.stringify(initializeRequest()),
      });
      assert.equal(refused.status, 503, 'a session past --max-sessions is refused');
      await refused.body?.cancel();
    } finally {
      for (const c of open) await c.close();
    }
  });
});

describe('gateway: a server that writes junk or floods, beside a well-behaved one', () => {
  let gateway: Gateway;
  let front: HttpListener;
  before(async () => {
    const json = {
      mcpServers: {
        unruly: { command: process.execPath, args: [UNRULY] },
        calm: { command: process.execPath, args: [UNRULY] },
      },
    };
    gateway = await openGateway(
      { host: parseConfig(json, process.env, REPO_ROOT), filters: parseFilters(json, 'test') },
      { info: { name: 'gw', version: '1.0.0' } },
    );
    front = await serveGatewayHttp(gateway);
  });
  after(async () => {
    await front?.close();
    await gateway?.close();
  });

  for (const era of ['handshake', 'stateless'] as const) {
    it(`stays up and keeps serving every server (${era})`, async () => {
      const c = await client(front.url, era);
      try {
        assert.equal(textOf(await c.callTool('unruly__junk')), 'survived junk');
        assert.equal(textOf(await c.callTool('unruly__flood')), 'survived flood');
        assert.equal(textOf(await c.callTool('calm__echo', { text: 'calm' })), 'calm');
        assert.equal(textOf(await c.callTool('unruly__echo', { text: 'still' })), 'still');
        const names = (await c.listAllTools()).map((t) => t.name);
        assert.ok(names.includes('unruly__echo') && names.includes('calm__echo'));
      } finally {
        await c.close();
      }
    });
  }
});
