// HttpClientTransport opens its GET stream once the server took notifications/initialized, and before
// the messages the client sent meanwhile: a server may answer a request on the first GET it sees (the
// conformance suite's sse-retry server does), so a GET sent after a request would take that request's
// answer and lose the resumption it stands for.

import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { FakeServer, status } from '../support/fake-http-server.js';
import { Client, closeClient, SESSION } from '../support/http-client-harness.js';
import { cites } from '../support/requirements.js';

describe('HttpClientTransport: the GET stream opens first', { timeout: 10_000 }, () => {
  let fake: FakeServer;
  let client: Client;

  beforeEach(async () => {
    fake = await FakeServer.start();
    client = new Client(fake.url, { openStream: true });
    await client.handshake(fake);
  });

  afterEach(async () => {
    await closeClient(client, fake);
    await fake.close();
  });

  it(cites(
    'http.get-stream',
  )`a request sent right after notifications/initialized goes after the GET`, async () => {
    client.transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    client.call(2);
    const initialized = await fake.expect('POST');
    assert.match(initialized.body, /notifications\/initialized/);
    status(initialized, 202);
    const stream = await fake.next();
    assert.equal(stream.method, 'GET', `the GET stream came after ${stream.body}`);
    assert.equal(stream.headers['mcp-session-id'], SESSION);
    const call = await fake.expect('POST');
    assert.match(call.body, /"id":2/);
    status(stream, 405);
    status(call, 202);
  });
});
