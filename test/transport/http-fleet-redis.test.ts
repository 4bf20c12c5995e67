// The limits of a fleet on a real redis-server (started here), as the README states them: sessions capped
// per instance (copies of other instances' sessions included) and in all (100 000 by default), the idle
// expiry kept in Redis (30 minutes by default) so that an expired session is gone on every instance, and
// the SSE events bounded per stream (about 1 000) and dropped 10 minutes after the last one. And node-redis
// is loaded only when a fleet on Redis is configured.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { McpServer } from '../../src/server/server.js';
import type { HttpListener } from '../../src/transport/http/listen.js';
import { connectRedis, type RedisConnection } from '../../src/transport/redis/connect.js';
import { redisFleet } from '../../src/transport/redis/fleet.js';
import { freePort, RedisProcess, requireBinary } from '../support/fleet-harness.js';

const HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

interface Options {
  maxSessions?: number;
  fleetMaxSessions?: number;
  sessionIdleTimeout?: number;
}

describe('the limits of a fleet on Redis', { timeout: 60_000 }, () => {
  let dir: string;
  let redis: RedisProcess;
  let admin: RedisConnection;
  const closers: Array<() => Promise<void>> = [];

  before(async () => {
    requireBinary('redis-server', 'redis-server');
    dir = mkdtempSync(join(tmpdir(), 'mcpwire-fleet-limits-'));
    redis = new RedisProcess(await freePort(), dir);
    await redis.start();
    admin = await connectRedis(redis.url);
  });

  after(async () => {
    for (const close of closers.splice(0)) await close();
    await admin?.close();
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Three instances on the Redis, each with its own keys' prefix per test so tests do not meet. */
  const fleetOf = async (prefix: string, options: Options = {}): Promise<HttpListener[]> => {
    const listeners: HttpListener[] = [];
    for (let i = 0; i < 3; i++) {
      const parts = await redisFleet(redis.url, { prefix });
      const server = new McpServer({ name: `limits-${i}`, version: '1' });
      const listener = await server.serveHttp({
        fleet: { sessions: parts.sessions, bus: parts.bus, maxSessions: options.fleetMaxSessions },
        eventStore: parts.eventStore,
        maxSessions: options.maxSessions,
        sessionIdleTimeout: options.sessionIdleTimeout,
      });
      listeners.push(listener);
      closers.push(async () => {
        await listener.close();
        await parts.close();
      });
    }
    return listeners;
  };

  const initialize = (listener: HttpListener) =>
    fetch(listener.url, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'limits', version: '1' },
        },
      }),
    });

  /** A new session's headers, or the refusal's status, Retry-After and text. */
  const open = async (listener: HttpListener) => {
    const response = await initialize(listener);
    const text = await response.text();
    const id = response.headers.get('mcp-session-id');
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      text,
      headers: id ? { 'Mcp-Session-Id': id, 'MCP-Protocol-Version': '2025-11-25' } : undefined,
    };
  };

  const request = async (listener: HttpListener, headers: Record<string, string>, method = 'POST') => {
    const response = await fetch(listener.url, {
      method,
      headers: { ...HEADERS, ...headers },
      body: method === 'POST' ? JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) : undefined,
    });
    return { status: response.status, text: await response.text() };
  };

  it('caps sessions on each instance (copies of sessions opened elsewhere count) and in all', async () => {
    const [a, b, c] = await fleetOf('caps:', { maxSessions: 2, fleetMaxSessions: 3 });
    const first = await open(a!);
    const second = await open(b!);
    assert.equal(first.status, 200);
    assert.equal(second.status, 200);
    // The first session served on b too: b now keeps two, its own and a copy.
    assert.equal((await request(b!, first.headers!)).status, 200);
    const overB = await open(b!);
    assert.equal(overB.status, 503);
    assert.equal(overB.retryAfter, '60');
    assert.match(overB.text, /this server keeps at most 2 sessions/);
    // The third in all is made on c; a fourth anywhere is refused, whatever the instance.
    const third = await open(c!);
    assert.equal(third.status, 200);
    const overAll = await open(a!);
    assert.equal(overAll.status, 503);
    assert.equal(overAll.retryAfter, '60');
    assert.match(overAll.text, /the fleet keeps at most 3 sessions in all/);
    // A session ended on one instance frees its place in all.
    assert.equal((await request(b!, first.headers!, 'DELETE')).status, 200);
    const again = await open(a!);
    assert.equal(again.status, 200);
    // c keeps its own session and a copy of the second: a copy of one more is refused there.
    assert.equal((await request(c!, second.headers!)).status, 200);
    const copy = await request(c!, again.headers!);
    assert.equal(copy.status, 503);
    assert.match(copy.text, /this server keeps at most 2 sessions/);
  });

  it('caps sessions in all at 100 000 by default', async () => {
    const [a] = await fleetOf('default-cap:');
    // The index of every session, filled in Redis itself, as if 100 000 sessions were open.
    await admin.command([
      'EVAL',
      "for i = 1, 100000 do redis.call('ZADD', KEYS[1], ARGV[1], 'other-' .. i) end",
      '1',
      'default-cap:sessions',
      String(Date.now() + 3_600_000),
    ]);
    const refused = await open(a!);
    assert.equal(refused.status, 503);
    assert.match(refused.text, /at most 100000 sessions in all/);
    await admin.command(['ZREM', 'default-cap:sessions', 'other-1']);
    assert.equal((await open(a!)).status, 200);
  });

  it('keeps the idle expiry in Redis (30 minutes by default), renewed by each request', async () => {
    const [a, b] = await fleetOf('expiry:');
    const session = await open(a!);
    const key = `expiry:session:${session.headers!['Mcp-Session-Id']}`;
    const ttl = Number(await admin.command(['PTTL', key]));
    assert.ok(ttl > 29 * 60_000 && ttl <= 30 * 60_000, `PTTL ${ttl}`);
    // Shortened by hand, then a request on another instance renews it.
    await admin.command(['PEXPIRE', key, '5000']);
    assert.equal((await request(b!, session.headers!)).status, 200);
    assert.ok(Number(await admin.command(['PTTL', key])) > 29 * 60_000);
  });

  it('a session that expired in Redis is gone on every instance, copies included', async () => {
    const [a, b, c] = await fleetOf('expired:', { sessionIdleTimeout: 60_000 });
    const session = await open(a!);
    assert.equal((await request(b!, session.headers!)).status, 200);
    // Redis expires the record (as it does once the idle timeout passes with no request anywhere).
    await admin.command(['PEXPIRE', `expired:session:${session.headers!['Mcp-Session-Id']}`, '1']);
    while (
      Number(await admin.command(['EXISTS', `expired:session:${session.headers!['Mcp-Session-Id']}`])) === 1
    ) {
      await delay(5);
    }
    for (const listener of [a!, b!, c!]) {
      const gone = await request(listener, session.headers!);
      assert.equal(gone.status, 404, gone.text);
    }
  });

  it('keeps about 1 000 events per SSE stream, dropped 10 minutes after the last one', async () => {
    const parts = await redisFleet(redis.url, { prefix: 'events:' });
    closers.push(() => parts.close());
    for (let i = 0; i < 2500; i++) {
      await parts.eventStore.storeEvent('s1', {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { i },
      });
    }
    const length = Number(await admin.command(['XLEN', 'events:events:s1']));
    // Redis trims whole nodes of a stream (100 entries by default): about 1 000, never fewer.
    assert.ok(length >= 1000 && length <= 1100, `XLEN ${length}`);
    const ttl = Number(await admin.command(['PTTL', 'events:events:s1']));
    assert.ok(ttl > 9 * 60_000 && ttl <= 10 * 60_000, `PTTL ${ttl}`);
  });
});

describe('loading', () => {
  it('node-redis is loaded only when a fleet on Redis is configured, not by the library or serveHttp()', async () => {
    // A fresh process, so that nothing else has loaded it; the built library, as users import it.
    const index = JSON.stringify(join(import.meta.dirname, '..', '..', 'dist', 'index.js'));
    const script = `
      import { createRequire } from 'node:module';
      const require = createRequire(import.meta.url);
      const loaded = () => Object.keys(require.cache).some((k) => /[\\/]node_modules[\\/](redis|@redis)[\\/]/.test(k));
      const { McpServer, redisFleet } = await import(${index});
      const listener = await new McpServer({ name: 'alone', version: '1' }).serveHttp();
      await listener.close();
      const before = loaded();
      const refused = await redisFleet('redis://127.0.0.1:1', { connectTimeout: 200 }).then(() => 'connected', (e) => e.code);
      console.log(JSON.stringify({ before, after: loaded(), refused }));`;
    const output = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['--input-type=module', '-e', script], (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
      );
    });
    assert.deepEqual(JSON.parse(output), { before: false, after: true, refused: 'FLEET_UNAVAILABLE' });
  });
});

describe('a system package the fleet tests need', () => {
  it('fails, never skips, when missing, and names the command that installs it', () => {
    assert.throws(
      () => requireBinary('mcpwire-no-such-binary', 'mcpwire-no-such-package'),
      /mcpwire-no-such-binary is not installed: run "apt-get update && apt-get install -y mcpwire-no-such-package" as root \(or node scripts\/setup-system.mjs\)/,
    );
  });
});
