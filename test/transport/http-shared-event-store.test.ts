// One event store shared by every session of a server (how a user plugs in a store of their own):
// resuming a session's GET stream must replay that session's events only.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { InMemoryEventStore } from '../../src/transport/http/event-store.js';
import { EventReader, listen, openSession, post, type Session } from '../support/http-helpers.js';
import { cites } from '../support/requirements.js';

type Listening = Awaited<ReturnType<typeof listen>>;

describe('an event store shared by several sessions', { timeout: 10_000 }, () => {
  let t: Listening;

  before(async () => {
    t = await listen({ eventStore: new InMemoryEventStore() });
  });

  after(async () => {
    await t?.listener.close();
  });

  const subscribe = async (session: Session, uri: string) => {
    const response = await post(
      t.listener.url,
      { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri } },
      { ...session.headers, Accept: 'application/json' },
    );
    assert.deepEqual(await response.json(), { jsonrpc: '2.0', id: 2, result: {} });
  };

  const openStream = async (session: Session, lastEventId?: string) => {
    const controller = new AbortController();
    const headers: Record<string, string> = { ...session.headers, Accept: 'text/event-stream' };
    if (lastEventId) headers['Last-Event-ID'] = lastEventId;
    const response = await fetch(t.listener.url, { headers, signal: controller.signal });
    assert.equal(response.status, 200);
    const reader = new EventReader(response);
    return {
      reader,
      close: async () => {
        controller.abort();
        await reader.cancel();
      },
    };
  };

  it(cites(
    'http.replay-per-stream',
  )`does not replay another session's GET stream (bug: both were stored as one stream)`, async () => {
    const a = await openSession(t.listener.url);
    const b = await openSession(t.listener.url);
    await subscribe(a, 'mem://a');
    await subscribe(b, 'mem://b');
    const streamA = await openStream(a);
    const streamB = await openStream(b);
    const primingA = await streamA.reader.next();
    const primingB = await streamB.reader.next();
    assert.ok(primingA?.id && primingB?.id);
    assert.notEqual(primingA.id, primingB.id);
    await streamB.close();

    // A message for A only, sent while B is away.
    t.server.notifyResourceUpdated('mem://a');
    assert.deepEqual((await streamA.reader.nextMessage()).message.params, { uri: 'mem://a' });

    // B resumes from its priming event: the first message it sees must be its own.
    const resumed = await openStream(b, primingB.id);
    t.server.notifyResourceUpdated('mem://b');
    assert.deepEqual((await resumed.reader.nextMessage()).message.params, { uri: 'mem://b' });
    await resumed.close();
    await streamA.close();
  });
});
