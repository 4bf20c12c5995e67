// HttpClientTransport resumes a response stream that broke before its response came: after the delay
// the server gave in `retry` (not its own default), with a GET that carries Last-Event-ID of the last
// event it saw, the session id and the protocol version; a stream with no event id cannot be resumed.

import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { drop, end, event, FakeServer, sse } from '../support/fake-http-server.js';
import { Client, closeClient, progress, result, SESSION } from '../support/http-client-harness.js';
import { VERSION } from '../support/http-helpers.js';
import { cites } from '../support/requirements.js';

const RETRY = 60;

describe('HttpClientTransport reconnection', { timeout: 10_000 }, () => {
  let fake: FakeServer;
  let client: Client;

  beforeEach(async () => {
    fake = await FakeServer.start();
    // A default far above the test's timeout: only the server's retry can make it in time.
    client = new Client(fake.url, { reconnectDelay: 60_000 });
    await client.handshake(fake);
  });

  afterEach(async () => {
    await closeClient(client, fake);
    await fake.close();
  });

  for (const how of ['a broken connection', 'a stream the server ended'] as const) {
    it(cites([
      'http.retry',
      'http.resumption',
    ])`resumes after ${how}: waits the retry delay, sends Last-Event-ID`, async () => {
      client.call(2);
      const call = await fake.expect('POST');
      sse(call, { 'Mcp-Session-Id': SESSION });
      event(call, { id: 'e-1', retry: RETRY });
      event(call, { id: 'e-2', data: progress(1) });
      assert.equal((await client.next()).method, 'notifications/progress');
      const lost = how === 'a broken connection' ? drop(call) : end(call);

      const resume = await fake.expect('GET');
      assert.ok(resume.at - lost >= RETRY - 2, `waited ${resume.at - lost} ms, retry was ${RETRY}`);
      assert.equal(resume.headers['last-event-id'], 'e-2');
      assert.equal(resume.headers['mcp-session-id'], SESSION);
      assert.equal(resume.headers['mcp-protocol-version'], VERSION);
      assert.match(String(resume.headers.accept), /text\/event-stream/);

      sse(resume);
      event(resume, { id: 'e-3', data: progress(2) });
      event(resume, { id: 'e-4', data: result(2, 'resumed') });
      resume.response.end();
      assert.deepEqual((await client.next()).params?.progress, 2);
      const answer = await client.next();
      assert.equal(answer.id, 2);
      assert.deepEqual(answer.result, result(2, 'resumed').result);
    });
  }

  it(cites('http.retry')`uses the latest retry the server sent`, async () => {
    client.call(3);
    const call = await fake.expect('POST');
    sse(call);
    event(call, { id: 'p-1', retry: 30_000 });
    event(call, { id: 'p-2', retry: RETRY, data: progress(1) });
    await client.next();
    const lost = drop(call);
    const resume = await fake.expect('GET');
    assert.ok(resume.at - lost >= RETRY - 2);
    assert.equal(resume.headers['last-event-id'], 'p-2');
    sse(resume);
    event(resume, { id: 'p-3', data: result(3, 'ok') });
    resume.response.end();
    assert.equal((await client.next()).id, 3);
  });

  it(cites(
    'http.resumption',
  )`fails the request without reconnecting when the stream had no event id`, async () => {
    client.call(4);
    const call = await fake.expect('POST');
    sse(call);
    event(call, { data: progress(1) });
    await client.next();
    drop(call);
    const failure = await client.next();
    assert.equal(failure.id, 4);
    assert.match(failure.error?.message ?? '', /stream ended before the response arrived/);
    // The failure is delivered once the client gave up: nothing but the two POSTs reached the server.
    assert.deepEqual(
      fake.requests.map((r) => r.method),
      ['POST', 'POST'],
    );
  });
});

describe('HttpClientTransport: the GET stream', { timeout: 10_000 }, () => {
  it(cites([
    'http.resumption',
    'http.retry',
  ])`bug: a broken GET stream was never resumed; now it is, with Last-Event-ID, after the retry delay`, async () => {
    const fake = await FakeServer.start();
    const client = new Client(fake.url, { openStream: true, reconnectDelay: 60_000 });
    try {
      await client.handshake(fake);
      client.transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      // The GET stream opens once the server took the first message sent under the negotiated version.
      const initialized = await fake.expect('POST');
      initialized.response.writeHead(202).end();
      const stream = await fake.expect('GET');
      sse(stream);
      event(stream, { id: 'g-1', retry: RETRY });
      event(stream, { id: 'g-2', data: progress(1) });
      assert.equal((await client.next()).method, 'notifications/progress');
      const lost = drop(stream);

      const resume = await fake.expect('GET');
      assert.ok(resume.at - lost >= RETRY - 2, `waited ${resume.at - lost} ms, retry was ${RETRY}`);
      assert.equal(resume.headers['last-event-id'], 'g-2');
      assert.equal(resume.headers['mcp-session-id'], SESSION);
      sse(resume);
      event(resume, { id: 'g-3', data: progress(2) });
      assert.deepEqual((await client.next()).params?.progress, 2);
    } finally {
      await closeClient(client, fake);
      await fake.close();
    }
  });
});
