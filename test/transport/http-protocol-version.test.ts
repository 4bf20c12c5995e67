// The MCP-Protocol-Version header after initialize: a supported version is served; an unsupported one
// is a 400 with a JSON-RPC error body on POST, GET and DELETE alike; an absent one is served at the
// version negotiated by initialize (the spec's fallback to 2025-03-26 is for servers that cannot tell).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectJsonRpcError, listen, openSession, post, type Session } from '../support/http-helpers.js';
import { cites } from '../support/requirements.js';

type Listening = Awaited<ReturnType<typeof listen>>;

const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });

describe('the MCP-Protocol-Version header', { timeout: 10_000 }, () => {
  let t: Listening;
  let session: Session;

  before(async () => {
    t = await listen({ jsonResponse: true });
    session = await openSession(t.listener.url);
  });

  after(async () => {
    await t?.listener.close();
  });

  it(cites('http.protocol-version-header')`serves a request that names the negotiated version`, async () => {
    const response = await post(t.listener.url, ping(2), session.headers);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { jsonrpc: '2.0', id: 2, result: {} });
  });

  it(cites(
    'http.protocol-version-invalid',
  )`refuses an unsupported version with 400 and a JSON-RPC error naming the supported ones`, async () => {
    const headers = { ...session.headers, 'MCP-Protocol-Version': '1999-01-01' };
    const body = await expectJsonRpcError(await post(t.listener.url, ping(3), headers), 400, -32600);
    assert.match(body.error.message, /unsupported MCP-Protocol-Version "1999-01-01"/);
    assert.match(body.error.message, /2025-11-25/);
    const get = await fetch(t.listener.url, { headers: { ...headers, Accept: 'text/event-stream' } });
    await expectJsonRpcError(get, 400, -32600, /MCP-Protocol-Version/);
    const del = await fetch(t.listener.url, { method: 'DELETE', headers });
    await expectJsonRpcError(del, 400, -32600, /MCP-Protocol-Version/);
    assert.ok(t.listener.handler.sessions.has(session.id), 'the refused DELETE did not end the session');
  });

  it(cites(
    'http.protocol-version-header',
  )`serves a request without the header at the negotiated version`, async () => {
    const response = await post(t.listener.url, ping(4), { 'Mcp-Session-Id': session.id });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { jsonrpc: '2.0', id: 4, result: {} });
  });

  it(cites('http.protocol-version-invalid')`takes its list of versions from sessionVersions`, async () => {
    const narrow = await listen({ jsonResponse: true, sessionVersions: ['2025-11-25'] });
    try {
      const s = await openSession(narrow.listener.url);
      const old = { ...s.headers, 'MCP-Protocol-Version': '2025-06-18' };
      await expectJsonRpcError(await post(narrow.listener.url, ping(5), old), 400, -32600, /2025-06-18/);
      const current = await post(narrow.listener.url, ping(6), s.headers);
      assert.equal(current.status, 200);
      await current.arrayBuffer();
    } finally {
      await narrow.listener.close();
    }
  });
});
