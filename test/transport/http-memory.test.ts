// A long-lived HTTP server must not keep what nobody can use any more: sessions that ended on the
// server's side, the events of their streams, and (in the in-memory store) streams beyond a bound.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { InMemoryEventStore } from '../../src/transport/http/event-store.js';
import { EventReader, Gate, listen, openSession, post, readAllEvents } from '../support/http-helpers.js';

type Listening = Awaited<ReturnType<typeof listen>>;

describe('HTTP server memory', { timeout: 10_000 }, () => {
  const store = new InMemoryEventStore();
  let t: Listening;

  before(async () => {
    t = await listen({ eventStore: store });
  });

  after(async () => {
    await t?.listener.close();
  });

  it('bug: a session the server ended stayed in the session map until a DELETE; now it and its events go', async () => {
    const session = await openSession(t.listener.url);
    // The GET stream, primed: the store holds a stream of this session for as long as the session lasts.
    const stream = await fetch(t.listener.url, {
      headers: { ...session.headers, Accept: 'text/event-stream' },
    });
    const reader = new EventReader(stream);
    assert.ok((await reader.next())?.id, 'the GET stream was primed');
    assert.ok(store.size > 0, 'the priming event was stored for resumption');
    const transport = t.listener.handler.sessions.get(session.id);
    assert.ok(transport);
    await transport.close();
    await reader.cancel();
    assert.equal(t.listener.handler.sessions.has(session.id), false);
    assert.equal(store.size, 0, "the ended session's streams were dropped from the store");
    const after = await post(t.listener.url, { jsonrpc: '2.0', id: 3, method: 'ping' }, session.headers);
    assert.equal(after.status, 404);
  });

  it('keeps the events of SSE streams written to the end for a few streams only, and those of a stream whose client went away', async () => {
    const session = await openSession(t.listener.url);
    const sse = { ...session.headers, Accept: 'text/event-stream' };
    // Answered at once and read to the end: such streams are kept for a grace period, 16 at most.
    for (let id = 10; id < 40; id++) {
      const answer = await post(t.listener.url, { jsonrpc: '2.0', id, method: 'tools/list' }, sse);
      assert.match(await answer.text(), /"tools"/);
    }
    assert.ok(store.size <= 17, `at most 16 finished streams kept, and one being answered (${store.size})`);

    // A stream whose client goes away before the answer: the answer is kept, to be resumed.
    t.gate.current = new Gate();
    t.started.current = new Gate();
    const controller = new AbortController();
    const waiting = await post(
      t.listener.url,
      {
        jsonrpc: '2.0',
        id: 4,
        method: 'tools/call',
        params: { name: 'wait', _meta: { progressToken: 'p' } },
      },
      sse,
      controller.signal,
    );
    const reader = new EventReader(waiting);
    const priming = await reader.next();
    await t.started.current.opened;
    controller.abort();
    await reader.cancel().catch(() => undefined);
    t.gate.current.open();
    const resumed = await fetch(t.listener.url, { headers: { ...sse, 'Last-Event-ID': priming!.id! } });
    const replayed = (await readAllEvents(resumed))
      .filter((e) => e.data !== '')
      .map((e) => JSON.parse(e.data));
    assert.deepEqual(
      replayed.map((m) => m.method ?? `response ${m.id}`),
      ['notifications/progress', 'notifications/progress', 'response 4'],
    );
    await t.listener.handler.sessions.get(session.id)?.close();
  });
});

describe('the default event store, shared by the sessions of an endpoint', { timeout: 10_000 }, () => {
  let t: Listening;

  before(async () => {
    t = await listen();
  });

  after(async () => {
    await t?.listener.close();
  });

  it("resumes a session's own streams only: another session's event id replays nothing of it", async () => {
    const first = await openSession(t.listener.url);
    const stream = await fetch(t.listener.url, {
      headers: { ...first.headers, Accept: 'text/event-stream' },
    });
    const reader = new EventReader(stream);
    const priming = await reader.next();
    assert.ok(priming?.id?.startsWith(first.id), "the first session's GET stream, primed");

    const second = await openSession(t.listener.url);
    const resumed = await fetch(t.listener.url, {
      headers: { ...second.headers, Accept: 'text/event-stream', 'Last-Event-ID': priming!.id! },
    });
    assert.equal(resumed.status, 200);
    const other = new EventReader(resumed);
    const event = await other.next();
    // Not the first session's stream: the second session's own GET stream, primed with an id of its own.
    assert.ok(event?.id?.startsWith(second.id), `an event of the second session (${event?.id})`);
    await other.cancel();
    await reader.cancel();
  });
});

describe('InMemoryEventStore bounds', () => {
  it('forgets the oldest stream beyond maxStreams, and the oldest events beyond maxEventsPerStream', () => {
    const store = new InMemoryEventStore({ maxStreams: 2, maxEventsPerStream: 2 });
    const first = store.storeEvent('s1', undefined);
    store.storeEvent('s2', undefined);
    assert.equal(store.streamOf(first), 's1');
    store.storeEvent('s3', undefined);
    assert.equal(store.size, 2);
    assert.equal(store.streamOf(first), undefined, 's1, the oldest, is gone');

    const message = (n: number) => ({ jsonrpc: '2.0' as const, method: 'n', params: { n } });
    const e1 = store.storeEvent('s3', message(1));
    store.storeEvent('s3', message(2));
    store.storeEvent('s3', message(3));
    const replayed: unknown[] = [];
    store.replayAfter(e1, (_id, m) => replayed.push(m));
    // e1 itself was dropped (two kept: 2 and 3), so the replay cannot find it: it replays the whole stream.
    assert.deepEqual(replayed, [message(2), message(3)]);
  });

  it('keeps 1 000 events per stream and 10 000 streams by default, as the README says', () => {
    const store = new InMemoryEventStore();
    const message = (n: number) => ({ jsonrpc: '2.0' as const, method: 'n', params: { n } });
    const first = store.storeEvent('s0', message(0));
    for (let n = 1; n <= 1000; n++) store.storeEvent('s0', message(n));
    const replayed: unknown[] = [];
    store.replayAfter(first, (_id, m) => replayed.push(m));
    assert.equal(replayed.length, 1000, 'the first of 1 001 events was dropped');
    assert.deepEqual(replayed[0], message(1));
    for (let i = 1; i < 10_000; i++) store.storeEvent(`s${i}`, undefined);
    assert.equal(store.size, 10_000);
    assert.equal(store.streamOf(first), 's0');
    store.storeEvent('s10000', undefined);
    assert.equal(store.size, 10_000);
    assert.equal(store.streamOf(first), undefined, 's0, the oldest, is gone');
  });
});
