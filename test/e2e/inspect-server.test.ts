// `mcpwire inspect --no-open` as a person starts it, against `mcpwire serve everything`: it prints an
// address on 127.0.0.1 with a token, and its web server refuses every request without the token, with a
// wrong one, from another site's page (Origin), for another Host (DNS rebinding) or a form post; it listens
// on loopback alone, so a non-loopback address of this machine is refused too. With the token, the API
// calls tools (the output schema checked), the feed holds the wire, and the export is a trace replay reads.

import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { request } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { readReplayScript } from '../../src/inspect/replay-script.js';
import { BIN, REPO_ROOT } from '../support/peers.js';
import { runCli } from '../support/run-cli.js';

/** A failure limit for the start, never a synchronisation. */
const LIMIT = 60_000;

let child: ChildProcessWithoutNullStreams;
let base: URL;
let token: string;

before(async () => {
  child = spawn(
    process.execPath,
    [BIN, 'inspect', '--no-open', '--', process.execPath, BIN, 'serve', 'everything'],
    {
      cwd: REPO_ROOT,
    },
  );
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (t: string) => {
    err += t;
  });
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no address within ${LIMIT} ms; stderr: ${err}`)), LIMIT);
    child.stdout.setEncoding('utf8').on('data', (t: string) => {
      out += t;
      const match = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    });
    child.on('exit', (code) => reject(new Error(`inspect exited with ${code}: ${err}`)));
  });
  base = new URL(address);
  token = base.searchParams.get('token')!;
});

after(async () => {
  if (child.exitCode !== null) return;
  const closed = new Promise((resolve) => child.on('close', resolve));
  child.kill('SIGTERM');
  await closed;
});

interface Answer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

function send(
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; host?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: options.host ?? '127.0.0.1',
        port: base.port,
        path,
        method: options.method ?? 'GET',
        headers: options.headers,
        setHost: options.headers?.host === undefined,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (t: string) => {
          body += t;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const withToken = (path: string) => `${path}${path.includes('?') ? '&' : '?'}token=${token}`;
const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-mcpwire-token': token },
  body: JSON.stringify(body),
});

describe('mcpwire inspect: who may use it', () => {
  it('prints an address on 127.0.0.1 with a long random token', () => {
    assert.equal(base.hostname, '127.0.0.1');
    assert.ok(token.length >= 24, token);
  });

  it('serves the page and the API with the token, with headers that keep the token in', async () => {
    const page = await send(withToken('/'));
    assert.equal(page.status, 200);
    assert.match(page.body, /mcpwire inspect/);
    assert.match(page.body, new RegExp(`/app.js\\?token=${token}`));
    assert.equal(page.headers['referrer-policy'], 'no-referrer');
    assert.match(String(page.headers['content-security-policy']), /default-src 'none'/);
    assert.equal((await send(withToken('/app.js'))).status, 200);
    assert.equal((await send('/api/state', { headers: { 'x-mcpwire-token': token } })).status, 200);
  });

  it('refuses every path without the token, or with a wrong one', async () => {
    for (const path of [
      '/',
      '/app.js',
      '/api/state',
      '/api/feed',
      '/api/events',
      '/api/export?server=mcpwire',
    ]) {
      const answer = await send(path);
      assert.equal(answer.status, 401, path);
      assert.match(answer.body, /token/);
    }
    assert.equal((await send(`/api/state?token=${token.slice(0, -1)}x`)).status, 401);
    const post = await send('/api/call', {
      ...json({ server: 'mcpwire', name: 'echo' }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(post.status, 401);
  });

  it("refuses another site's page, even with the token", async () => {
    for (const origin of ['http://evil.example', 'http://127.0.0.1:1', 'null']) {
      const answer = await send('/api/call', {
        ...json({ server: 'mcpwire', name: 'echo', arguments: { message: 'x' } }),
        headers: { ...json({}).headers, origin },
      });
      assert.equal(answer.status, 403, origin);
      assert.match(answer.body, /origin/);
    }
  });

  it('refuses a foreign Host (a DNS name rebound to 127.0.0.1), even with the token', async () => {
    for (const host of ['evil.example', `evil.example:${base.port}`, `127.0.0.1:${Number(base.port) + 1}`]) {
      const answer = await send(withToken('/api/state'), { headers: { host } });
      assert.equal(answer.status, 421, host);
    }
  });

  it('refuses a form another page could post without a preflight', async () => {
    const answer = await send('/api/call', {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'x-mcpwire-token': token },
      body: '{"server":"mcpwire","name":"echo"}',
    });
    assert.equal(answer.status, 415);
  });

  it('listens on loopback only: a non-loopback address of this machine is refused', async () => {
    const outside = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && !i.internal && i.family === 'IPv4');
    // The guard refuses a non-loopback peer as well (test/inspect/web-guard.test.ts); here the socket itself.
    assert.ok(
      outside,
      'this machine has no non-loopback IPv4 address to try; the guard test covers the refusal',
    );
    const refused = await new Promise<string>((resolve) => {
      const socket = connect({ host: outside.address, port: Number(base.port) });
      socket.on('connect', () => {
        socket.destroy();
        resolve('connected');
      });
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    assert.equal(refused, 'ECONNREFUSED');
  });
});

describe('mcpwire inspect: the API', () => {
  it('calls a tool and checks its structuredContent against the output schema', async () => {
    const answer = await send(
      '/api/call',
      json({ server: 'mcpwire', name: 'add', arguments: { a: 2, b: 3 } }),
    );
    assert.equal(answer.status, 200, answer.body);
    const body = JSON.parse(answer.body) as {
      result: { structuredContent: unknown };
      output?: { valid: boolean };
    };
    assert.deepEqual(body.result.structuredContent, { sum: 5 });
  });

  it("passes a server's error answer on as it came, and names what a bad request lacks", async () => {
    const unknown = await send('/api/call', json({ server: 'mcpwire', name: 'no_such_tool' }));
    assert.equal(unknown.status, 502, unknown.body);
    const answered = JSON.parse(unknown.body) as { from: string; code: number; error: string };
    assert.equal(answered.from, 'server');
    assert.equal(typeof answered.code, 'number');
    assert.match(answered.error, /no_such_tool/);
    const bad = await send('/api/call', json({ server: 'mcpwire' }));
    assert.equal(bad.status, 400);
    assert.equal((JSON.parse(bad.body) as { error: string }).error, '"name" is a non-empty string');
    const notJson = await send('/api/read', { ...json({}), body: '{oops' });
    assert.equal(notJson.status, 400);
    const noServer = await send('/api/read', json({ server: 'nope', uri: 'test://x' }));
    assert.equal(noServer.status, 409);
  });

  it('answers a body over 8 MiB with 413, declared or not, and goes on serving', {
    timeout: 20_000,
  }, async () => {
    /** A POST written on a socket of its own, its body in 1 MiB pieces; what came back before the close. */
    const rawPost = (head: Record<string, string>, body: string[]) =>
      new Promise<string>((resolve) => {
        const socket = connect(Number(base.port), '127.0.0.1');
        let text = '';
        socket.setEncoding('utf8').on('data', (t: string) => {
          text += t;
        });
        // The server stops reading once it has refused: writing on may fail, which is no failure here.
        socket.on('error', () => {});
        socket.on('close', () => resolve(text));
        const headers = Object.entries({
          host: base.host,
          'content-type': 'application/json',
          'x-mcpwire-token': token,
          ...head,
        })
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join('');
        socket.write(`POST /api/call HTTP/1.1\r\n${headers}\r\n`);
        for (const piece of body) socket.write(piece);
      });
    const mib = 'x'.repeat(1024 * 1024);
    // Declared: refused from its Content-Length, before the body comes.
    const declared = await rawPost({ 'content-length': String(9 * 1024 * 1024) }, ['{"pad":"']);
    assert.match(declared, /^HTTP\/1\.1 413/);
    assert.match(declared, /larger than 8388608 bytes/);
    // Chunked: told by what arrives.
    const pieces = Array.from({ length: 9 }, () => `${mib.length.toString(16)}\r\n${mib}\r\n`);
    const chunked = await rawPost({ 'transfer-encoding': 'chunked' }, pieces);
    assert.match(chunked, /^HTTP\/1\.1 413/);
    assert.equal((await send('/api/state', { headers: { 'x-mcpwire-token': token } })).status, 200);
  });

  it('closes the live feed of a page that stopped reading it, rather than keep all of it', {
    timeout: 60_000,
  }, async () => {
    const socket = connect(Number(base.port), '127.0.0.1');
    socket.on('error', () => {});
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(`GET /api/events?token=${token} HTTP/1.1\r\nhost: ${base.host}\r\n\r\n`);
    let head = '';
    await new Promise<void>((resolve) => {
      const onData = (chunk: Buffer) => {
        head += chunk.toString('latin1');
        if (head.includes('mcpwire inspect')) {
          socket.off('data', onData);
          socket.pause();
          resolve();
        }
      };
      socket.on('data', onData);
    });
    assert.match(head, /^HTTP\/1\.1 200/);
    // 64 KiB each way per call, in the feed: 200 calls are some 26 MiB for a page that reads nothing.
    const message = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 200; i++) {
      const answer = await send(
        '/api/call',
        json({ server: 'mcpwire', name: 'echo', arguments: { message } }),
      );
      assert.equal(answer.status, 200);
    }
    let received = 0;
    const all = 200 * 2 * message.length;
    const closed = await new Promise<boolean>((resolve) => {
      socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received >= all) resolve(false);
      });
      socket.once('close', () => resolve(true));
      socket.resume();
    });
    socket.destroy();
    assert.ok(closed && received < all, `the feed kept everything for its page (${received} bytes)`);
  });

  it('runs the doctor on a fresh process of a server, handed in by the command line', async () => {
    const answer = await send('/api/doctor', json({ server: 'mcpwire' }));
    assert.equal(answer.status, 200, answer.body);
    const report = JSON.parse(answer.body) as {
      server: string;
      results: Array<{ id: string; status: string }>;
    };
    assert.equal(report.server, 'mcpwire');
    assert.ok(report.results.some((r) => r.id === 'handshake' && r.status === 'pass'));
    assert.deepEqual(
      report.results.filter((r) => r.status === 'fail'),
      [],
    );
  });

  it('keeps the wire in its feed and exports it as a trace log replay reads', async () => {
    const feed = JSON.parse((await send(withToken('/api/feed?after=0'))).body) as Array<{
      type: string;
      payload?: { method?: string };
      pair?: number;
    }>;
    assert.ok(feed.some((e) => e.type === 'message' && e.payload?.method === 'tools/call'));
    assert.ok(feed.some((e) => e.pair !== undefined));
    const exported = await send(withToken('/api/export?server=mcpwire'));
    assert.equal(exported.status, 200);
    assert.match(String(exported.headers['content-disposition']), /mcpwire\.trace\.jsonl/);
    const [conversation] = readReplayScript(exported.body);
    assert.ok(conversation!.steps.some((s) => s.kind === 'send' && s.method === 'tools/call'));
  });
});

describe('mcpwire inspect: usage', () => {
  it('names what is wrong with its options, exit 2, before starting anything', async () => {
    const port = await runCli([
      'inspect',
      '--no-open',
      '--port',
      'abc',
      '--',
      process.execPath,
      BIN,
      'serve',
      'everything',
    ]);
    assert.equal(port.code, 2);
    assert.match(port.stderr, /--port takes a port number/);
    const none = await runCli(['inspect', '--no-open']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /which server\?/);
  });
});

/** Starts `node ARGS` and gives the first match of `pattern` in its output (stdout or stderr), and the process. */
async function startAndFind(
  args: string[],
  pattern: RegExp,
): Promise<{ child: ChildProcessWithoutNullStreams; found: string }> {
  const started = spawn(process.execPath, args, { cwd: REPO_ROOT });
  let text = '';
  const found = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${pattern} not seen within ${LIMIT} ms: ${text}`)),
      LIMIT,
    );
    const look = (chunk: string) => {
      text += chunk;
      const match = pattern.exec(text);
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    };
    started.stdout.setEncoding('utf8').on('data', look);
    started.stderr.setEncoding('utf8').on('data', look);
    started.on('exit', (code) => reject(new Error(`exited with ${code}: ${text}`)));
  });
  return { child: started, found };
}

async function stop(process_: ChildProcessWithoutNullStreams): Promise<void> {
  if (process_.exitCode !== null) return;
  const closed = new Promise((resolve) => process_.on('close', resolve));
  process_.kill('SIGTERM');
  await closed;
}

describe('mcpwire inspect --url', () => {
  it('inspects a remote server over Streamable HTTP: its wire is in the feed', async () => {
    const remote = await startAndFind(
      [BIN, 'serve', 'everything', '--http', '0'],
      /http:\/\/127\.0\.0\.1:\d+\/mcp/,
    );
    try {
      const inspector = await startAndFind(
        [BIN, 'inspect', '--no-open', '--url', remote.found],
        /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/,
      );
      try {
        const address = new URL(inspector.found);
        const headers = {
          'x-mcpwire-token': address.searchParams.get('token')!,
          'content-type': 'application/json',
        };
        const state = (await (await fetch(new URL('/api/state', address), { headers })).json()) as {
          servers: Array<{ name: string; transport: string; state: string }>;
        };
        assert.deepEqual(
          state.servers.map((s) => [s.name, s.transport, s.state]),
          [['127.0.0.1', 'streamable-http', 'ready']],
        );
        const call = await fetch(new URL('/api/call', address), {
          method: 'POST',
          headers,
          body: JSON.stringify({ server: '127.0.0.1', name: 'echo', arguments: { message: 'over http' } }),
        });
        assert.equal(call.status, 200);
        assert.match(JSON.stringify(await call.json()), /over http/);
        const feed = (await (
          await fetch(new URL('/api/feed?after=0', address), { headers })
        ).json()) as Array<{
          type: string;
          from?: string;
          latencyMs?: number;
          answers?: string;
        }>;
        assert.ok(
          feed.some(
            (e) => e.type === 'message' && e.answers === 'tools/call' && typeof e.latencyMs === 'number',
          ),
        );
      } finally {
        await stop(inspector.child);
      }
    } finally {
      await stop(remote.child);
    }
  });
});
