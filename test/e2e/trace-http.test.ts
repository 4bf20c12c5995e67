// `mcpwire trace --http PORT --url UPSTREAM`, the recording reverse proxy: it changes nothing in the
// traffic (a hand-written upstream in this process records the exact bytes it gets and sends, and the
// client's view through the proxy is compared with them), it records each message with its session,
// stream and latency (a real mcpwire HTTP server, driven by the real CLI), and it flags each HTTP fault of
// the broken fixture (test/fixtures/doctor-http/server.mjs) and none of the correct one.

import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, request } from 'node:http';
import { after, describe, it } from 'node:test';
import type { TraceRecord } from '../../src/inspect/trace-format.js';
import { type RemoteKind, type RemoteServer, startRemote } from '../support/remote-servers.js';
import { runCli } from '../support/run-cli.js';
import { startTrace } from '../support/trace-proxy.js';

const remotes = new Set<RemoteServer>();
after(async () => {
  for (const remote of remotes) await remote.stop();
});

const problems = (records: TraceRecord[]) =>
  records.filter((r): r is Extract<TraceRecord, { type: 'problem' }> => r.type === 'problem');

describe('trace --http forwards every byte unchanged', () => {
  it('gives the upstream the request and the client the answer exactly as each was sent', async () => {
    const received: { method: string; url: string; headers: IncomingHttpHeaders; body: Buffer }[] = [];
    // Bytes a careless rewrite would change: non-ASCII text, a UTF-8 character and an SSE event split
    // across writes, CRLF line ends, comments, extra spaces.
    const jsonParts = [
      Buffer.from('{"jsonrpc":"2.0", "id":1,\n "result":{"text":"h\u00e9'),
      Buffer.from('llo \u2603"}}'),
    ];
    const snowman = Buffer.from('\u2603');
    const sseParts = [
      Buffer.from(': a comment\r\nid: 7\r\ndata: {"jsonrpc":"2.0","id":2,"result":{"t":"'),
      snowman.subarray(0, 1),
      Buffer.concat([snowman.subarray(1), Buffer.from('"}}\r\n\r\n')]),
    ];
    const upstream = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({
          method: req.method!,
          url: req.url!,
          headers: req.headers,
          body: Buffer.concat(chunks),
        });
        if (req.url === '/mcp/json') {
          res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'X-Custom': 'one' });
          res.write(jsonParts[0]);
          setImmediate(() => res.end(jsonParts[1]));
        } else if (req.url === '/mcp/sse?x=1') {
          res.writeHead(200, { 'Content-Type': 'text/event-stream' });
          let i = 0;
          const next = () => {
            if (i < sseParts.length) {
              res.write(sseParts[i++]);
              setImmediate(next);
            } else res.end();
          };
          next();
        } else res.writeHead(404, { 'X-Custom': 'missing' }).end('no such thing\n');
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const { port } = upstream.address() as { port: number };
    const trace = await startTrace(`http://127.0.0.1:${port}/mcp/json`);
    const base = new URL(trace.url).origin;
    try {
      const body = Buffer.from(
        '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"q":"\u00e9\\n\u2603"}}  \n',
      );
      const sent = {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'X-Mine': 'a b',
      };
      const json = await fetch(`${base}/mcp/json`, { method: 'POST', headers: sent, body });
      assert.equal(json.status, 200);
      assert.equal(json.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.equal(json.headers.get('x-custom'), 'one');
      assert.deepEqual(Buffer.from(await json.arrayBuffer()), Buffer.concat(jsonParts));

      const sse = await fetch(`${base}/mcp/sse?x=1`, { method: 'POST', headers: sent, body });
      assert.equal(sse.headers.get('content-type'), 'text/event-stream');
      assert.deepEqual(Buffer.from(await sse.arrayBuffer()), Buffer.concat(sseParts));

      const missing = await fetch(`${base}/elsewhere`, {
        method: 'GET',
        headers: { Accept: 'text/event-stream' },
      });
      assert.equal(missing.status, 404);
      assert.equal(missing.headers.get('x-custom'), 'missing');
      assert.equal(await missing.text(), 'no such thing\n');

      assert.deepEqual(
        received.map((r) => [r.method, r.url]),
        [
          ['POST', '/mcp/json'],
          ['POST', '/mcp/sse?x=1'],
          ['GET', '/elsewhere'],
        ],
      );
      for (const request of received.slice(0, 2)) {
        assert.deepEqual(request.body, body);
        assert.equal(request.headers['x-mine'], 'a b');
        assert.equal(request.headers['content-type'], 'application/json');
        assert.equal(request.headers.accept, 'application/json, text/event-stream');
        assert.equal(request.headers.host, `127.0.0.1:${port}`);
      }
    } finally {
      const { code, records } = await trace.stop();
      upstream.close();
      assert.equal(code, 0);
      // Both answers are recorded, whole, the SSE one with its split character put back together.
      const answers = records.filter((r) => r.type === 'message' && r.from === 'server');
      assert.deepEqual(
        answers.map((r) => r.type === 'message' && r.payload),
        [
          { jsonrpc: '2.0', id: 1, result: { text: 'h\u00e9llo \u2603' } },
          { jsonrpc: '2.0', id: 2, result: { t: '\u2603' } },
        ],
      );
      const exchanges = records.filter((r) => r.type === 'http');
      assert.deepEqual(
        exchanges.map((r) => r.type === 'http' && [r.stream, r.method, r.path, r.status]),
        [
          ['POST#1', 'POST', '/mcp/json', 200],
          ['POST#2', 'POST', '/mcp/sse?x=1', 200],
          ['GET#3', 'GET', '/elsewhere', 404],
        ],
      );
    }
  });

  it('passes the head of a quiet SSE stream on at once, before any event', async () => {
    // A GET stream (or an SSE answer still working) may send its head and nothing else for a long time:
    // the client must see it open as it would without the proxy.
    let hold: (() => void) | undefined;
    const upstream = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.flushHeaders();
      hold = () => res.end();
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const { port } = upstream.address() as { port: number };
    const trace = await startTrace(`http://127.0.0.1:${port}/mcp`);
    try {
      // Resolves with the head; the stream stays open until the upstream is told to end it below.
      const answer = await fetch(trace.url, {
        headers: { Accept: 'text/event-stream' },
        signal: AbortSignal.timeout(5000),
      });
      assert.equal(answer.status, 200);
      assert.equal(answer.headers.get('content-type'), 'text/event-stream');
      hold!();
      assert.equal(await answer.text(), '');
    } finally {
      await trace.stop();
      upstream.closeAllConnections();
      await new Promise<void>((resolve) => upstream.close(() => resolve()));
    }
  });

  it('answers 502 with a JSON-RPC error, and records it, when the upstream cannot be reached', async () => {
    const upstream = createServer();
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const { port } = upstream.address() as { port: number };
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
    const trace = await startTrace(`http://127.0.0.1:${port}/mcp`);
    const answer = await fetch(trace.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    assert.equal(answer.status, 502);
    const body = (await answer.json()) as { error: { message: string } };
    assert.match(body.error.message, /could not be reached: .*ECONNREFUSED/);
    const { records } = await trace.stop();
    assert.deepEqual(
      problems(records).map((p) => p.kind),
      ['upstream'],
    );
  });
});

describe('trace --http and web pages', () => {
  it('refuses a foreign Host (DNS rebinding) or a foreign Origin with 403, without forwarding it', async () => {
    // The proxy adds --header (credentials, often) to what it forwards: a web page that reaches it through
    // a name of its own resolving to 127.0.0.1 must not get to use them.
    let asked = 0;
    const upstream = createServer((_req, res) => {
      asked++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{}}');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const { port } = upstream.address() as { port: number };
    const trace = await startTrace(`http://127.0.0.1:${port}/mcp`);
    const target = new URL(trace.url);
    const post = (headers: Record<string, string>) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: target.port,
            path: target.pathname,
            method: 'POST',
            setHost: headers.host === undefined,
            headers: { 'content-type': 'application/json', ...headers },
          },
          (res) => {
            let body = '';
            res.setEncoding('utf8').on('data', (t: string) => {
              body += t;
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.end('{"jsonrpc":"2.0","id":1,"method":"ping"}');
      });
    try {
      const rebound = await post({ host: `attacker.example:${target.port}` });
      assert.equal(rebound.status, 403);
      const message = (answer: { body: string }) =>
        (JSON.parse(answer.body) as { error: { message: string } }).error.message;
      assert.match(message(rebound), /Host "attacker\.example:\d+" is not allowed/);
      const foreign = await post({ origin: 'https://attacker.example' });
      assert.equal(foreign.status, 403);
      assert.match(message(foreign), /Origin "https:\/\/attacker\.example" is not allowed/);
      assert.equal(asked, 0, 'nothing was forwarded');
      assert.equal((await post({ origin: `http://localhost:${target.port}` })).status, 200);
      assert.equal(asked, 1);
    } finally {
      await trace.stop();
      upstream.close();
    }
  });
});

describe('trace --http records a real session', () => {
  // A tool each server has, with its arguments.
  const servers: { kind: RemoteKind; call: string[] }[] = [
    { kind: 'mcpwire', call: ['test_simple_text'] },
    { kind: 'sdk-streamable', call: ['add', 'a=1', 'b=2'] },
    { kind: 'sdk-sse', call: ['add', 'a=1', 'b=2'] },
    { kind: 'everything-streamable', call: ['get-env'] },
  ];
  for (const { kind, call: args } of servers) {
    it(`records each message of mcpwire call against ${kind} with its stream and latency, and flags nothing`, async () => {
      const remote = await startRemote(kind);
      remotes.add(remote);
      const trace = await startTrace(remote.url);
      const run = await runCli(['call', '--url', trace.url, ...args]);
      const { records } = await trace.stop();
      await remote.stop();
      remotes.delete(remote);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(problems(records), []);
      const call = records.find(
        (r) =>
          r.type === 'message' &&
          r.from === 'client' &&
          (r.payload as { method?: string }).method === 'tools/call',
      );
      assert.ok(call && call.type === 'message');
      const answer = records.find((r) => r.type === 'message' && r.answers === 'tools/call');
      assert.ok(answer && answer.type === 'message');
      // Over the older HTTP+SSE transport every response comes on the one GET stream.
      if (kind !== 'sdk-sse')
        assert.equal(answer.stream, call.stream, 'a response is on the stream of its request');
      else assert.match(answer.stream ?? '', /^GET#/);
      assert.equal(typeof answer.latencyMs, 'number');
    });
  }
});

/**
 * A session driven by hand, as a client of 2025-11-25 would drive it: initialize, initialized, a GET
 * stream, tools/list, DELETE. `omitSession` leaves the session id off tools/list; `accept` is that
 * request's Accept.
 */
async function session(url: string, options: { omitSession?: boolean; accept?: string } = {}): Promise<void> {
  const both = 'application/json, text/event-stream';
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: both,
        'MCP-Protocol-Version': '2025-11-25',
        ...headers,
      },
      body: JSON.stringify(body),
    });
  const init = await post({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'trace-test', version: '1' },
    },
  });
  await init.text();
  const id = init.headers.get('mcp-session-id');
  const withSession: Record<string, string> = id ? { 'Mcp-Session-Id': id } : {};
  await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, withSession)).text();
  const aborter = new AbortController();
  const stream = await fetch(url, {
    headers: { Accept: 'text/event-stream', 'MCP-Protocol-Version': '2025-11-25', ...withSession },
    signal: aborter.signal,
  });
  const list = await post(
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    { ...(options.omitSession ? {} : withSession), ...(options.accept ? { Accept: options.accept } : {}) },
  );
  const listed = await list.text();
  if (stream.ok && stream.headers.get('content-type')?.startsWith('text/event-stream')) {
    // The answer to tools/list may come on the GET stream (the response-on-get fault): read until it did.
    if (list.ok && !listed.includes('"tools"')) {
      const reader = stream.body!.getReader();
      let seen = '';
      while (!seen.includes('"tools"')) {
        const { value, done } = await reader.read();
        if (done) break;
        seen += Buffer.from(value).toString('utf8');
      }
    }
  } else await stream.text();
  aborter.abort();
  await (await fetch(url, { method: 'DELETE', headers: withSession })).text();
}

describe('trace --http flags the faults of the HTTP binding', () => {
  const cases: { fault: string; kinds: string[]; omitSession?: boolean; accept?: string }[] = [
    { fault: 'none', kinds: [] },
    { fault: 'none', kinds: ['session-id-missing'], omitSession: true },
    { fault: 'none', kinds: [], accept: 'application/json' },
    { fault: 'no-session-id', kinds: ['session-id-missing'] },
    { fault: 'changed-session-id', kinds: ['session-id-changed'] },
    { fault: 'text-plain', kinds: ['content-type'] },
    { fault: 'ignores-accept', kinds: ['content-type'], accept: 'application/json' },
    // Some faults bring a second problem that follows from the first: a body that is no JSON-RPC message,
    // a request whose split response never arrived whole.
    { fault: 'get-json', kinds: ['content-type', 'invalid-jsonrpc'] },
    { fault: 'notification-200', kinds: ['http-status', 'invalid-jsonrpc'] },
    { fault: 'split-sse', kinds: ['sse-event', 'unanswered'] },
    { fault: 'response-on-get', kinds: ['wrong-stream'] },
  ];
  for (const { fault, kinds, omitSession, accept } of cases) {
    const variant = omitSession
      ? ' (client leaves out the session id)'
      : accept
        ? ` (Accept: ${accept})`
        : '';
    // The timeout is a failure limit: a stream the driver waits on in vain fails the case.
    it(`${fault}${variant}: ${kinds.length === 0 ? 'nothing' : kinds.join(', ')}`, {
      timeout: 30_000,
    }, async () => {
      const remote = await startRemote('doctor-http', undefined, fault);
      remotes.add(remote);
      const trace = await startTrace(remote.url);
      await session(trace.url, { omitSession, accept });
      const { records } = await trace.stop();
      await remote.stop();
      remotes.delete(remote);
      const found = problems(records);
      assert.deepEqual([...new Set(found.map((p) => p.kind))], kinds, JSON.stringify(found, null, 1));
      // Every message is recorded, and the ones after initialize carry their session.
      const initialize = records.find(
        (r) => r.type === 'message' && (r.payload as { method?: string }).method === 'initialize',
      );
      assert.ok(initialize);
      if (fault === 'none' && !omitSession) {
        const session = records.find((r) => r.type === 'message' && r.answers === 'initialize');
        assert.ok(session?.type === 'message' && session.session, 'the initialize answer is in its session');
        const listed = records.find((r) => r.type === 'message' && r.answers === 'tools/list');
        assert.ok(listed?.type === 'message');
        assert.equal(listed.session, session.session);
      }
    });
  }
});
