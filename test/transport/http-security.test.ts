// Safe defaults against DNS rebinding: listenHttp binds 127.0.0.1 unless told otherwise and then answers
// only requests whose Host is local and whose Origin, when present, is a local page; anything else is a
// 403 with a JSON-RPC error body, on every method, and the server keeps serving.

import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  expectRawError,
  initializeRequest,
  listen,
  openSession,
  POST_HEADERS,
  rawRequest,
  type Session,
} from '../support/http-helpers.js';
import { cites } from '../support/requirements.js';

type Listening = Awaited<ReturnType<typeof listen>>;

const ping = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' });

describe('the default listener', { timeout: 10_000 }, () => {
  let t: Listening;
  let session: Session;
  let port: number;

  before(async () => {
    t = await listen({ jsonResponse: true });
    port = (t.listener.server.address() as AddressInfo).port;
    session = await openSession(t.listener.url);
  });

  after(async () => {
    await t?.listener.close();
  });

  it(cites('http.bind-localhost')`binds 127.0.0.1 on a free port`, () => {
    const address = t.listener.server.address() as AddressInfo;
    assert.equal(address.address, '127.0.0.1');
    assert.ok(address.port > 0);
    assert.equal(t.listener.url, `http://127.0.0.1:${address.port}/mcp`);
  });

  it('serves the local host names', async () => {
    for (const host of ['127.0.0.1', 'localhost', '[::1]', 'LOCALHOST']) {
      const response = await rawRequest(t.listener.url, {
        headers: { ...POST_HEADERS, ...session.headers, Host: `${host}:${port}` },
        body: ping,
      });
      assert.equal(response.status, 200, host);
    }
  });

  it('refuses a foreign Host with 403, on every method', async () => {
    for (const method of ['POST', 'GET', 'DELETE']) {
      const response = await rawRequest(t.listener.url, {
        method,
        headers: {
          ...POST_HEADERS,
          ...session.headers,
          Accept: 'application/json, text/event-stream',
          Host: `attacker.example:${port}`,
        },
        body: method === 'POST' ? ping : undefined,
      });
      expectRawError(response, 403, /Forbidden: Host "attacker\.example:\d+" is not allowed/);
    }
    // A host name that merely starts like a local one is foreign too.
    const lookalike = await rawRequest(t.listener.url, {
      headers: { ...POST_HEADERS, Host: `localhost.attacker.example:${port}` },
      body: JSON.stringify(initializeRequest()),
    });
    expectRawError(lookalike, 403);
    assert.ok(t.listener.handler.sessions.has(session.id), 'the refused DELETE ended nothing');
  });

  it(cites(
    'http.dns-rebinding',
  )`refuses a foreign or opaque Origin with 403, and serves a local one`, async () => {
    for (const origin of ['https://attacker.example', 'http://localhost.attacker.example', 'null']) {
      const response = await rawRequest(t.listener.url, {
        headers: { ...POST_HEADERS, ...session.headers, Origin: origin },
        body: ping,
      });
      expectRawError(response, 403, /Origin/);
    }
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:8080', 'http://[::1]:3000']) {
      const response = await rawRequest(t.listener.url, {
        headers: { ...POST_HEADERS, ...session.headers, Origin: origin },
        body: ping,
      });
      assert.equal(response.status, 200, origin);
    }
  });
});

describe('an explicit origin policy', { timeout: 10_000 }, () => {
  let t: Listening;

  before(async () => {
    t = await listen({
      jsonResponse: true,
      originPolicy: { allowedHosts: ['mcp.example'], allowedOrigins: ['https://app.example'] },
    });
  });

  after(async () => {
    await t?.listener.close();
  });

  it(cites('http.dns-rebinding')`accepts exactly the hosts and origins it lists`, async () => {
    const port = (t.listener.server.address() as AddressInfo).port;
    const init = JSON.stringify(initializeRequest());
    const ok = await rawRequest(t.listener.url, {
      headers: { ...POST_HEADERS, Host: `mcp.example:${port}`, Origin: 'https://app.example' },
      body: init,
    });
    assert.equal(ok.status, 200);
    const localHost = await rawRequest(t.listener.url, { headers: POST_HEADERS, body: init });
    expectRawError(localHost, 403, /Host/);
    const localOrigin = await rawRequest(t.listener.url, {
      headers: { ...POST_HEADERS, Host: 'mcp.example', Origin: 'http://localhost:3000' },
      body: init,
    });
    expectRawError(localOrigin, 403, /Origin/);
  });
});

describe('a listener bound to every interface', { timeout: 10_000 }, () => {
  let t: Listening;

  before(async () => {
    t = await listen({ host: '0.0.0.0', jsonResponse: true });
  });

  after(async () => {
    await t?.listener.close();
  });

  it(cites('http.dns-rebinding')`serves any Host, but still refuses a foreign Origin`, async () => {
    const port = (t.listener.server.address() as AddressInfo).port;
    const url = `http://127.0.0.1:${port}/mcp`;
    const init = JSON.stringify(initializeRequest());
    const named = await rawRequest(url, {
      headers: { ...POST_HEADERS, Host: `mcp-box.lan:${port}` },
      body: init,
    });
    assert.equal(named.status, 200);
    const foreign = await rawRequest(url, {
      headers: { ...POST_HEADERS, Host: `mcp-box.lan:${port}`, Origin: 'https://attacker.example' },
      body: init,
    });
    expectRawError(foreign, 403, /Origin/);
  });
});
