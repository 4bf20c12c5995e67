// Resumability: an SSE stream that stays open past the turn its POST came in starts with a priming event
// (an id, no data, and the `retry` hint); one answered within that turn is one body, unstored. A client
// that lost a stream GETs it back with Last-Event-ID and the event store replays what it missed,
// from that stream only, then the stream goes on or ends.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { JsonRpcMessage } from '../../src/jsonrpc/messages.js';
import { InMemoryEventStore } from '../../src/transport/http/event-store.js';
import { EventReader, Gate, listen, openSession, post, type Session } from '../support/http-helpers.js';
import { cites } from '../support/requirements.js';

type Listening = Awaited<ReturnType<typeof listen>>;

/** The in-memory store, telling when a given message has been stored. */
class ObservedStore extends InMemoryEventStore {
  private waiters: Array<{ test: (m: JsonRpcMessage) => boolean; resolve: () => void }> = [];

  override storeEvent(streamId: string, message: JsonRpcMessage | undefined): string {
    const id = super.storeEvent(streamId, message);
    if (message) {
      this.waiters = this.waiters.filter((w) => {
        if (!w.test(message)) return true;
        w.resolve();
        return false;
      });
    }
    return id;
  }

  stored(test: (m: JsonRpcMessage) => boolean): Promise<void> {
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }
}

const isResponseTo = (id: number) => (m: JsonRpcMessage) => 'id' in m && m.id === id && !('method' in m);

const waitCall = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'wait', _meta: { progressToken: `token-${id}` } },
});

function describeMessage(message: Record<string, unknown>): string {
  if (message.method === 'notifications/progress')
    return `progress ${(message.params as { progress: number }).progress}`;
  return `response ${String(message.id)}`;
}

describe('resumability with the in-memory event store', { timeout: 10_000 }, () => {
  let t: Listening;
  let session: Session;
  const store = new ObservedStore();

  before(async () => {
    t = await listen({ eventStore: store, retryInterval: 250 });
    session = await openSession(t.listener.url);
  });

  after(async () => {
    await t?.listener.close();
  });

  it(cites(
    'http.priming-event',
  )`starts an SSE stream that stays open with a priming event: an id, empty data and the retry hint`, async () => {
    t.gate.current = new Gate();
    t.started.current = new Gate();
    const response = await post(t.listener.url, waitCall(2), session.headers);
    const reader = new EventReader(response);
    const priming = await reader.next();
    assert.ok(priming?.id);
    assert.equal(priming.data, '');
    assert.equal(priming.retry, 250);
    assert.match(reader.raw, /^id: [^\n]+\nretry: 250\ndata: ?\n\n/);
    const progress = await reader.nextMessage();
    assert.equal(describeMessage(progress.message), 'progress 1');
    assert.ok(progress.id && progress.id !== priming.id);
    t.gate.current.open();
    assert.equal(describeMessage((await reader.nextMessage()).message), 'progress 2');
    assert.equal(describeMessage((await reader.nextMessage()).message), 'response 2');
    assert.equal(await reader.next(), undefined);
  });

  it('writes an answer ready in the turn its POST came as one body with its length, unstored: no event id was ever there to resume from', async () => {
    const kept = store.size;
    const response = await post(t.listener.url, { jsonrpc: '2.0', id: 20, method: 'ping' }, session.headers);
    assert.equal(response.headers.get('content-type'), 'text/event-stream');
    const text = await response.text();
    assert.equal(text, 'event: message\ndata: {"jsonrpc":"2.0","id":20,"result":{}}\n\n');
    assert.equal(response.headers.get('content-length'), String(Buffer.byteLength(text)));
    assert.equal(response.headers.get('transfer-encoding'), null);
    assert.equal(store.size, kept, 'nothing was stored');
  });

  it(cites([
    'http.resumption',
    'http.replay-per-stream',
  ])`replays the events missed on a lost stream after Last-Event-ID, from that stream only`, async () => {
    t.gate.current = new Gate();
    t.started.current = new Gate();
    const controller = new AbortController();
    const response = await post(t.listener.url, waitCall(3), session.headers, controller.signal);
    const reader = new EventReader(response);
    const priming = await reader.next();
    const first = await reader.nextMessage();
    assert.equal(describeMessage(first.message), 'progress 1');
    await t.started.current.opened;
    // The connection drops; the call goes on, and so does another one on a stream of its own.
    controller.abort();
    await reader.cancel();
    const echo = await post(
      t.listener.url,
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } },
      session.headers,
    );
    await echo.arrayBuffer();
    const answered = store.stored(isResponseTo(3));
    t.gate.current.open();
    await answered;

    const resume = async (lastEventId: string) => {
      const get = await fetch(t.listener.url, {
        headers: { ...session.headers, Accept: 'text/event-stream', 'Last-Event-ID': lastEventId },
      });
      assert.equal(get.status, 200);
      const replay = new EventReader(get);
      const events: Array<{ id: string | undefined; what: string }> = [];
      for (let event = await replay.next(); event; event = await replay.next()) {
        if (event.data !== '') events.push({ id: event.id, what: describeMessage(JSON.parse(event.data)) });
      }
      return events;
    };

    const missed = await resume(first.id!);
    assert.deepEqual(
      missed.map((e) => e.what),
      ['progress 2', 'response 3'],
    );
    assert.ok(missed.every((e) => e.id && e.id !== first.id));
    assert.equal(new Set(missed.map((e) => e.id)).size, 2, 'event ids are unique');

    // From the priming event: everything the stream carried, and nothing of the echo call's stream.
    assert.deepEqual(
      (await resume(priming!.id!)).map((e) => e.what),
      ['progress 1', 'progress 2', 'response 3'],
    );
  });

  it(cites([
    'http.resumption',
    'http.replay-per-stream',
  ])`resumes a stream still in progress, and goes on with it live`, async () => {
    t.gate.current = new Gate();
    t.started.current = new Gate();
    const controller = new AbortController();
    const response = await post(t.listener.url, waitCall(5), session.headers, controller.signal);
    const reader = new EventReader(response);
    const priming = await reader.next();
    await t.started.current.opened;
    controller.abort();
    await reader.cancel();

    const get = await fetch(t.listener.url, {
      headers: { ...session.headers, Accept: 'text/event-stream', 'Last-Event-ID': priming!.id! },
    });
    const resumed = new EventReader(get);
    assert.equal(describeMessage((await resumed.nextMessage()).message), 'progress 1');
    t.gate.current.open();
    assert.equal(describeMessage((await resumed.nextMessage()).message), 'progress 2');
    assert.equal(describeMessage((await resumed.nextMessage()).message), 'response 5');
    assert.equal(await resumed.next(), undefined, 'the resumed stream ends with its last response');
  });
});

describe('resuming a GET stream that missed nothing', { timeout: 10_000 }, () => {
  let t: Listening;

  before(async () => {
    t = await listen();
  });

  after(async () => {
    await t?.listener.close();
  });

  it(cites(
    'http.resumption',
  )`answers at once and then carries new messages (bug: no headers came until the next message)`, async () => {
    const session = await openSession(t.listener.url);
    await (
      await post(
        t.listener.url,
        { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'mem://a' } },
        { ...session.headers, Accept: 'application/json' },
      )
    ).arrayBuffer();
    const controller = new AbortController();
    const first = await fetch(t.listener.url, {
      headers: { ...session.headers, Accept: 'text/event-stream' },
      signal: controller.signal,
    });
    const reader = new EventReader(first);
    const priming = await reader.next();
    controller.abort();
    await reader.cancel();

    // Nothing was sent since the priming event: the server must still answer before it sends anything.
    const again = await fetch(t.listener.url, {
      headers: { ...session.headers, Accept: 'text/event-stream', 'Last-Event-ID': priming!.id! },
    });
    assert.equal(again.status, 200);
    const resumed = new EventReader(again);
    t.server.notifyResourceUpdated('mem://a');
    assert.deepEqual((await resumed.nextMessage()).message.params, { uri: 'mem://a' });
    await resumed.cancel();
  });
});

describe('resumability turned off (eventStore: null)', { timeout: 10_000 }, () => {
  let t: Listening;

  before(async () => {
    t = await listen({ eventStore: null });
  });

  after(async () => {
    await t?.listener.close();
  });

  it('sends no priming event and no event ids', async () => {
    const session = await openSession(t.listener.url);
    const response = await post(t.listener.url, { jsonrpc: '2.0', id: 2, method: 'ping' }, session.headers);
    const reader = new EventReader(response);
    const event = await reader.next();
    assert.equal(event?.id, undefined);
    assert.equal(event?.retry, undefined);
    assert.deepEqual(JSON.parse(event!.data), { jsonrpc: '2.0', id: 2, result: {} });
    assert.equal(await reader.next(), undefined);
  });
});
