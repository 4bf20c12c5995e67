// HttpClientTransport when resuming a stream does not go smoothly: a reconnect that fails (5xx or a
// broken connection) is tried again, up to maxReconnects in a row; a refusal (404: the session is gone)
// ends it at once; and a server that closes the stream after every event (polling) is followed as long
// as each reconnect brings something new.

import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { drop, event, FakeServer, type Incoming, sse, status } from '../support/fake-http-server.js';
import { Client, closeClient, progress, result } from '../support/http-client-harness.js';

const RETRY = 20;

describe('HttpClientTransport reconnection failures', { timeout: 10_000 }, () => {
  let fake: FakeServer;
  let client: Client;

  beforeEach(async () => {
    fake = await FakeServer.start();
    client = new Client(fake.url, { reconnectDelay: 60_000, maxReconnects: 3 });
    await client.handshake(fake);
  });

  afterEach(async () => {
    await closeClient(client, fake);
    await fake.close();
  });

  /** Sends a call, answers it with a stream that has one event, and breaks it once the client has it. */
  async function brokenCall(id: number): Promise<Incoming> {
    client.call(id);
    const call = await fake.expect('POST');
    sse(call);
    event(call, { id: `${id}-1`, retry: RETRY, data: progress(1) });
    assert.equal((await client.next()).params?.progress, 1);
    drop(call);
    return call;
  }

  it('tries again after a failed reconnect (bug: it gave up after the first)', async () => {
    await brokenCall(2);
    const first = await fake.expect('GET');
    status(first, 503);
    const second = await fake.expect('GET');
    assert.equal(second.headers['last-event-id'], '2-1', 'the same resumption point');
    assert.ok(second.at - first.at >= RETRY - 2, 'after the retry delay again');
    sse(second);
    event(second, { id: '2-2', data: result(2, 'second time lucky') });
    second.response.end();
    assert.deepEqual(await client.next(), result(2, 'second time lucky'));
  });

  it('fails the request after maxReconnects failed attempts in a row', async () => {
    await brokenCall(3);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const get = await fake.expect('GET');
      if (attempt === 2) drop(get);
      else status(get, 502);
    }
    const failure = await client.next();
    assert.equal(failure.id, 3);
    assert.ok(failure.error);
    assert.deepEqual(
      fake.requests.map((r) => r.method),
      ['POST', 'POST', 'GET', 'GET', 'GET'],
      'three attempts, no fourth',
    );
  });

  it('stops at once when the server refuses the resumption with 404', async () => {
    await brokenCall(4);
    const get = await fake.expect('GET');
    status(get, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } });
    const failure = await client.next();
    assert.equal(failure.id, 4);
    assert.ok(failure.error);
    assert.deepEqual(
      fake.requests.map((r) => r.method),
      ['POST', 'POST', 'GET'],
    );
  });

  it('follows a server that ends the stream after every event (bug: 3 reconnects were all it got)', async () => {
    client.call(5);
    let stream = await fake.expect('POST');
    sse(stream);
    event(stream, { id: '5-0', retry: RETRY, data: progress(0) });
    assert.equal((await client.next()).params?.progress, 0);
    for (let n = 1; n <= 5; n++) {
      drop(stream);
      stream = await fake.expect('GET');
      assert.equal(stream.headers['last-event-id'], `5-${n - 1}`);
      sse(stream);
      event(stream, { id: `5-${n}`, data: progress(n) });
      assert.equal((await client.next()).params?.progress, n);
    }
    event(stream, { id: '5-6', data: result(5, 'polled') });
    stream.response.end();
    assert.deepEqual(await client.next(), result(5, 'polled'));
  });
});
