// Streamable HTTP sessions: initialize gives an Mcp-Session-Id that every later request must carry;
// a request without one is a 400, an unknown one a 404; DELETE ends the session, and its id is then
// unknown to POST, GET and DELETE alike.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  expectJsonRpcError,
  initializeRequest,
  listen,
  openSession,
  POST_HEADERS,
  post,
  VERSION,
} from '../support/http-helpers.js';
import { cites } from '../support/requirements.js';

type Listening = Awaited<ReturnType<typeof listen>>;

const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });

describe('Streamable HTTP sessions', { timeout: 10_000 }, () => {
  let t: Listening;

  before(async () => {
    t = await listen();
  });

  after(async () => {
    await t?.listener.close();
  });

  it(cites('http.session-id')`gives each initialize a new session id, made of visible ASCII`, async () => {
    const a = await openSession(t.listener.url);
    const b = await openSession(t.listener.url);
    assert.notEqual(a.id, b.id);
    for (const id of [a.id, b.id]) assert.match(id, /^[\x21-\x7e]+$/);
    assert.ok(t.listener.handler.sessions.has(a.id) && t.listener.handler.sessions.has(b.id));
  });

  it(cites('http.session-required')`refuses a request without Mcp-Session-Id with 400`, async () => {
    await openSession(t.listener.url);
    const response = await post(t.listener.url, ping(2), { 'MCP-Protocol-Version': VERSION });
    await expectJsonRpcError(response, 400, -32600, /Mcp-Session-Id/);
    const get = await fetch(t.listener.url, { headers: { Accept: 'text/event-stream' } });
    await expectJsonRpcError(get, 400, -32600, /Mcp-Session-Id/);
  });

  it(cites('http.session-terminated')`refuses an unknown session id with 404`, async () => {
    const response = await post(t.listener.url, ping(3), {
      'Mcp-Session-Id': 'no-such-session',
      'MCP-Protocol-Version': VERSION,
    });
    await expectJsonRpcError(response, 404, -32001, /Session not found/);
  });

  it(cites('lifecycle.initialize-not-batched')`refuses initialize inside a batch with 400`, async () => {
    const response = await post(t.listener.url, [initializeRequest(1), ping(2)]);
    await expectJsonRpcError(response, 400, -32600, /initialize must be sent on its own/);
  });

  it(cites(
    'http.session-terminated',
  )`ends a session on DELETE; its id is then unknown to POST, GET and DELETE`, async () => {
    const session = await openSession(t.listener.url);
    // An open GET stream of the session ends with it.
    const stream = await fetch(t.listener.url, {
      headers: { ...session.headers, Accept: 'text/event-stream' },
    });
    assert.equal(stream.status, 200);
    const ended = stream.text();

    const deleted = await fetch(t.listener.url, { method: 'DELETE', headers: session.headers });
    assert.equal(deleted.status, 200);
    await deleted.arrayBuffer();
    await ended;
    assert.equal(t.listener.handler.sessions.has(session.id), false);

    await expectJsonRpcError(await post(t.listener.url, ping(4), session.headers), 404, -32001);
    const get = await fetch(t.listener.url, { headers: { ...session.headers, Accept: 'text/event-stream' } });
    await expectJsonRpcError(get, 404, -32001);
    const again = await fetch(t.listener.url, { method: 'DELETE', headers: session.headers });
    await expectJsonRpcError(again, 404, -32001);
  });

  it('keeps the other sessions when one is deleted', async () => {
    const kept = await openSession(t.listener.url);
    const gone = await openSession(t.listener.url);
    await (await fetch(t.listener.url, { method: 'DELETE', headers: gone.headers })).arrayBuffer();
    const response = await post(t.listener.url, ping(5), { ...kept.headers, Accept: 'application/json' });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { jsonrpc: '2.0', id: 5, result: {} });
  });
});

describe('Streamable HTTP sessions with jsonResponse', { timeout: 10_000 }, () => {
  let t: Listening;

  before(async () => {
    t = await listen({ jsonResponse: true });
  });

  after(async () => {
    await t?.listener.close();
  });

  it(cites(
    'http.session-id',
  )`sends Mcp-Session-Id with a JSON answer to initialize (bug: the header was dropped)`, async () => {
    const response = await fetch(t.listener.url, {
      method: 'POST',
      headers: POST_HEADERS,
      body: JSON.stringify(initializeRequest()),
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const id = response.headers.get('mcp-session-id');
    assert.ok(id && t.listener.handler.sessions.has(id), 'the header names the new session');
    await response.json();
    const pinged = await post(t.listener.url, ping(2), {
      'Mcp-Session-Id': id,
      'MCP-Protocol-Version': VERSION,
    });
    assert.deepEqual(await pinged.json(), { jsonrpc: '2.0', id: 2, result: {} });
  });
});

/** Resolves once `done()` holds, checking after each turn of the event loop; fails after `limitMs`. */
async function eventually(done: () => boolean, what: string, limitMs = 5000): Promise<void> {
  const started = Date.now();
  while (!done()) {
    if (Date.now() - started > limitMs) assert.fail(`${what} did not happen within ${limitMs} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('Streamable HTTP sessions: what the server keeps', { timeout: 10_000 }, () => {
  it('bug: a refused initialize still created a session and returned its id; it leaves none', async () => {
    const t = await listen({ jsonResponse: true });
    try {
      // No protocolVersion: initialize is refused with -32602.
      const response = await post(t.listener.url, {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { capabilities: {}, clientInfo: { name: 't', version: '1' } },
      });
      const body = (await response.json()) as { error?: { code: number } };
      assert.equal(body.error?.code, -32602);
      assert.equal(response.headers.get('mcp-session-id'), null, 'no session id for a refused initialize');
      await eventually(() => t.listener.handler.sessions.size === 0, 'the refused session ending');
    } finally {
      await t.listener.close();
    }
  });

  it('bug: over SSE, a refused initialize still got a session id (the stream opened before the answer was known)', async () => {
    const t = await listen({ jsonResponse: false });
    try {
      const response = await post(t.listener.url, {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { capabilities: {}, clientInfo: { name: 't', version: '1' } },
      });
      assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
      assert.equal(response.headers.get('mcp-session-id'), null, 'no session id for a refused initialize');
      assert.match(await response.text(), /"code":-32602/);
      await eventually(() => t.listener.handler.sessions.size === 0, 'the refused session ending');
      // An initialize that succeeds over SSE still names its session.
      const opened = await post(t.listener.url, initializeRequest());
      const id = opened.headers.get('mcp-session-id');
      assert.ok(id && t.listener.handler.sessions.has(id), 'the header names the new session');
      assert.match(await opened.text(), /"protocolVersion"/);
    } finally {
      await t.listener.close();
    }
  });

  it('bug: sessions had no cap; past maxSessions a new one is refused with 503 and Retry-After', async () => {
    const t = await listen({ maxSessions: 2 });
    try {
      await openSession(t.listener.url);
      await openSession(t.listener.url);
      const third = await post(t.listener.url, initializeRequest(1));
      assert.equal(third.status, 503);
      const error = (await third.json()) as { id: unknown; error: { code: number; message: string } };
      assert.equal(error.id, 1, 'the refusal answers the initialize by its id');
      assert.equal(error.error.code, -32603);
      assert.match(error.error.message, /at most 2 sessions/);
      assert.equal(third.headers.get('retry-after'), '60');
      assert.equal(t.listener.handler.sessions.size, 2);
    } finally {
      await t.listener.close();
    }
  });

  it('bug: a session with a cancelled request never expired (the request stayed in flight); now it does', async () => {
    const t = await listen({ sessionIdleTimeout: 20 });
    try {
      const session = await openSession(t.listener.url);
      const call = await post(
        t.listener.url,
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'wait' } },
        session.headers,
      );
      await t.started.current.opened;
      const cancel = await post(
        t.listener.url,
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } },
        session.headers,
      );
      assert.equal(cancel.status, 202);
      // The tool ends after the cancellation (it does not watch its signal): its answer is never sent.
      t.gate.current.open();
      await eventually(() => !t.listener.handler.sessions.has(session.id), 'the idle session ending');
      await call.body?.cancel();
    } finally {
      await t.listener.close();
    }
  });

  it('bug: sessions never expired; one idle past sessionIdleTimeout ends, and its id then gets 404', async () => {
    const t = await listen({ sessionIdleTimeout: 20 });
    try {
      const session = await openSession(t.listener.url);
      await eventually(() => !t.listener.handler.sessions.has(session.id), 'the idle session ending');
      const later = await post(t.listener.url, ping(5), session.headers);
      await expectJsonRpcError(later, 404, -32001);
    } finally {
      await t.listener.close();
    }
  });
});
