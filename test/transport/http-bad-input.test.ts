// Bad input over Streamable HTTP: each gets its HTTP status and a JSON-RPC error body without id, and
// the server keeps serving: an oversized body (413), malformed JSON (400, -32700), a body that is not
// JSON (415), a method the endpoint does not have (405 with Allow), a path that is not the endpoint (404).

import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { after, before, describe, it } from 'node:test';
import {
  expectRawError,
  listen,
  openSession,
  POST_HEADERS,
  rawRequest,
  type Session,
} from '../support/http-helpers.js';
import { cites } from '../support/requirements.js';

type Listening = Awaited<ReturnType<typeof listen>>;

const LIMIT = 1024;

describe('bad input', { timeout: 10_000 }, () => {
  let t: Listening;
  let session: Session;
  let nextId = 100;

  before(async () => {
    t = await listen({ jsonResponse: true, maxBodySize: LIMIT });
    session = await openSession(t.listener.url);
  });

  after(async () => {
    await t?.listener.close();
  });

  /** A call of the echo tool whose body is `size` bytes long. */
  const echoOfSize = (size: number) => {
    const text = (pad: number) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: nextId,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'x'.repeat(pad) } },
      });
    const body = text(size - text(0).length);
    assert.equal(Buffer.byteLength(body), size);
    return body;
  };

  const stillServes = async () => {
    const id = ++nextId;
    const response = await rawRequest(t.listener.url, {
      headers: { ...POST_HEADERS, ...session.headers },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' }),
    });
    assert.equal(response.status, 200);
    assert.deepEqual(JSON.parse(response.body), { jsonrpc: '2.0', id, result: {} });
  };

  it('takes a body of exactly maxBodySize, and refuses one byte more with 413', async () => {
    const fits = await rawRequest(t.listener.url, {
      headers: { ...POST_HEADERS, ...session.headers },
      body: echoOfSize(LIMIT),
    });
    assert.equal(fits.status, 200);
    const tooLarge = await rawRequest(t.listener.url, {
      headers: { ...POST_HEADERS, ...session.headers },
      body: echoOfSize(LIMIT + 1),
    });
    expectRawError(tooLarge, 413, new RegExp(`exceeds ${LIMIT} bytes`));
    await stillServes();
  });

  it(cites('http.post-refused')`answers malformed JSON with 400 and a -32700 parse error`, async () => {
    for (const body of ['{"jsonrpc": "2.0", "id": 1, "method": ', 'not json at all', '']) {
      const response = await rawRequest(t.listener.url, {
        headers: { ...POST_HEADERS, ...session.headers },
        body,
      });
      assert.equal(expectRawError(response, 400, /^Parse error/).error.code, -32700, JSON.stringify(body));
    }
    await stillServes();
  });

  it('refuses a POST that is not application/json with 415, and takes one with a charset', async () => {
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
      const headers: Record<string, string> = { Accept: POST_HEADERS.Accept, ...session.headers };
      if (type) headers['Content-Type'] = type;
      const response = await rawRequest(t.listener.url, { headers, body: ping });
      assert.equal(expectRawError(response, 415, /Unsupported Media Type/).error.code, -32600, String(type));
    }
    const charset = await rawRequest(t.listener.url, {
      headers: { ...POST_HEADERS, ...session.headers, 'Content-Type': 'application/json; charset=utf-8' },
      body: ping,
    });
    assert.equal(charset.status, 200);
    await stillServes();
  });

  it('refuses PUT, PATCH and HEAD with 405 and an Allow header', async () => {
    for (const method of ['PUT', 'PATCH']) {
      const response = await rawRequest(t.listener.url, {
        method,
        headers: { ...POST_HEADERS, ...session.headers },
        body: '{}',
      });
      expectRawError(response, 405, new RegExp(`not ${method}`));
      assert.equal(response.headers.allow, 'GET, POST, DELETE');
    }
    const head = await rawRequest(t.listener.url, { method: 'HEAD', headers: session.headers });
    assert.equal(head.status, 405);
    assert.equal(head.headers.allow, 'GET, POST, DELETE');
    await stillServes();
  });

  it('answers a path other than the endpoint with 404', async () => {
    const response = await rawRequest(t.listener.url.replace(/\/mcp$/, '/other'), {
      headers: { ...POST_HEADERS, ...session.headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'ping' }),
    });
    expectRawError(response, 404, /the MCP endpoint is \/mcp/);
    // A query string does not change the path.
    const query = await rawRequest(`${t.listener.url}?x=1`, {
      headers: { ...POST_HEADERS, ...session.headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'ping' }),
    });
    assert.equal(query.status, 200);
  });
});

/**
 * A POST whose body is written in part and never ended: resolves with the answer the server gives while
 * the client is still sending (or would still send), then drops the request.
 */
function unfinishedPost(url: string, headers: Record<string, string>, part: Buffer | string) {
  return new Promise<{ status: number; body: string; closed: boolean }>((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString(),
          closed: res.headers.connection === 'close',
        });
        request.destroy();
      });
    });
    request.on('error', (error) => {
      // The server closing the connection after its answer is expected; anything before it is not.
      if (
        (error as NodeJS.ErrnoException).code !== 'ECONNRESET' &&
        (error as NodeJS.ErrnoException).code !== 'EPIPE'
      )
        reject(error);
    });
    request.write(part);
  });
}

describe('bad input: bodies that are too large, stalled or not UTF-8', { timeout: 10_000 }, () => {
  let t: Listening;
  let session: Session;

  before(async () => {
    t = await listen({ jsonResponse: true, maxBodySize: LIMIT, bodyTimeout: 200 });
    session = await openSession(t.listener.url);
  });

  after(async () => {
    await t?.listener.close();
  });

  it('bug: a declared 1 TiB body was read before the 413; it is refused from its Content-Length at once', async () => {
    const answer = await unfinishedPost(
      t.listener.url,
      { ...POST_HEADERS, ...session.headers, 'Content-Length': String(2 ** 40) },
      '{"jsonrpc":"2.0",',
    );
    assert.equal(answer.status, 413);
    assert.match(answer.body, /exceeds 1024 bytes/);
    assert.equal(answer.closed, true, 'the connection is closed: nothing more of the body is read');
  });

  it('bug: a body without a length was read to its end before the 413; reading stops at the limit', async () => {
    // Chunked, and never ended: the answer can only come from the server stopping at the limit.
    const answer = await unfinishedPost(
      t.listener.url,
      { ...POST_HEADERS, ...session.headers, 'Transfer-Encoding': 'chunked' },
      'x'.repeat(LIMIT + 1),
    );
    assert.equal(answer.status, 413);
  });

  it('bug: a stalled body was held for 300 s; it is refused with 408 after bodyTimeout', async () => {
    const answer = await unfinishedPost(
      t.listener.url,
      { ...POST_HEADERS, ...session.headers, 'Content-Length': '100' },
      '{"jsonrpc":',
    );
    assert.equal(answer.status, 408);
    assert.match(answer.body, /stopped arriving/);
  });

  it('serves on after a client goes away in the middle of its body', async () => {
    // The server learns of it as the request's error (or its close): the body's reading ends there,
    // with nothing thrown out of an event handler (the test would fail on an uncaught exception).
    const arrived = new Promise<IncomingMessage>((resolve) => t.listener.server.once('request', resolve));
    const client = httpRequest(t.listener.url, {
      method: 'POST',
      headers: { ...POST_HEADERS, ...session.headers, 'Content-Length': '100' },
    });
    client.on('error', () => {});
    client.write('{"jsonrpc":');
    const request = await arrived;
    const closed = new Promise((resolve) => request.once('close', resolve));
    client.destroy();
    await closed;
    const response = await rawRequest(t.listener.url, {
      headers: { ...POST_HEADERS, ...session.headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'after', method: 'ping' }),
    });
    assert.equal(response.status, 200);
    assert.deepEqual(JSON.parse(response.body), { jsonrpc: '2.0', id: 'after', result: {} });
  });

  it('bug: invalid UTF-8 was replaced and processed; the body is refused with 400 and -32700', async () => {
    const body = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":"a'),
      Buffer.from([0xff]),
      Buffer.from('","method":"ping"}'),
    ]);
    const response = await rawRequest(t.listener.url, {
      headers: { ...POST_HEADERS, ...session.headers },
      body,
    });
    const error = expectRawError(response, 400, /not valid UTF-8/);
    assert.equal(error.error.code, -32700);
  });

  it('takes a U+FFFD the client wrote (valid UTF-8), and still refuses invalid bytes beside one', async () => {
    // Only a decoded text with U+FFFD in it has its bytes checked: one the client meant is kept as sent.
    const id = 'a\uFFFDb';
    const served = await rawRequest(t.listener.url, {
      headers: { ...POST_HEADERS, ...session.headers },
      body: Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' }), 'utf8'),
    });
    assert.equal(served.status, 200);
    assert.deepEqual(JSON.parse(served.body), { jsonrpc: '2.0', id, result: {} });
    const mixed = await rawRequest(t.listener.url, {
      headers: { ...POST_HEADERS, ...session.headers },
      body: Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":"\uFFFD', 'utf8'),
        Buffer.from([0xc3]),
        Buffer.from('","method":"ping"}'),
      ]),
    });
    expectRawError(mixed, 400, /not valid UTF-8/);
  });
});
