// HttpClientTransport.close() ends everything it has open: a stream it resumed, and a reconnect it was
// waiting to make, so that nothing reaches the server after the DELETE and the process can exit.

import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { drop, event, FakeServer, sse } from '../support/fake-http-server.js';
import { Client, closeClient, progress } from '../support/http-client-harness.js';

/** Watches the timers set with one delay: which are still pending. Restores the globals on `restore`. */
function watchTimers(delay: number) {
  const realSet = globalThis.setTimeout;
  const realClear = globalThis.clearTimeout;
  const pending = new Set<unknown>();
  let created!: () => void;
  const firstCreated = new Promise<void>((resolve) => {
    created = resolve;
  });
  globalThis.setTimeout = ((callback: () => void, ms?: number) => {
    const timer = realSet(() => {
      pending.delete(timer);
      callback();
    }, ms);
    if (ms === delay) {
      pending.add(timer);
      created();
    }
    return timer;
  }) as unknown as typeof setTimeout;
  globalThis.clearTimeout = ((timer: Parameters<typeof clearTimeout>[0]) => {
    pending.delete(timer);
    realClear(timer);
  }) as typeof clearTimeout;
  return {
    firstCreated,
    pending: () => pending.size,
    restore: () => {
      globalThis.setTimeout = realSet;
      globalThis.clearTimeout = realClear;
      for (const timer of pending) realClear(timer as Parameters<typeof clearTimeout>[0]);
    },
  };
}

describe('HttpClientTransport.close()', { timeout: 10_000 }, () => {
  let fake: FakeServer;
  let client: Client;

  beforeEach(async () => {
    fake = await FakeServer.start();
    client = new Client(fake.url, { reconnectDelay: 60_000 });
    await client.handshake(fake);
  });

  afterEach(async () => {
    await fake.close();
  });

  it('aborts a stream it resumed (bug: the resumed GET was left open)', async () => {
    client.call(2);
    const call = await fake.expect('POST');
    sse(call);
    event(call, { id: 'c-1', retry: 10, data: progress(1) });
    await client.next();
    drop(call);
    const resumed = await fake.expect('GET');
    sse(resumed);
    event(resumed, { id: 'c-2', data: progress(2) });
    assert.equal((await client.next()).params?.progress, 2, 'the client reads the resumed stream');

    await closeClient(client, fake);
    await resumed.closed; // Never resolved while the client held the stream open.
    assert.equal(client.closed.length, 1);
  });

  it('cancels a reconnect it was waiting to make (bug: it reconnected after close)', async () => {
    const RETRY = 45_678;
    const timers = watchTimers(RETRY);
    try {
      client.call(3);
      const call = await fake.expect('POST');
      sse(call);
      event(call, { id: 'w-1', retry: RETRY, data: progress(1) });
      await client.next();
      drop(call);
      await timers.firstCreated; // The client waits RETRY ms before reconnecting.
      await closeClient(client, fake);
      assert.equal(timers.pending(), 0, 'no reconnect is still scheduled');
      assert.deepEqual(
        fake.requests.map((r) => r.method),
        ['POST', 'POST', 'DELETE'],
      );
    } finally {
      timers.restore();
    }
  });
});
