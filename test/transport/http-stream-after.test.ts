// Streamable HTTP with `streamAfter` (the proxy's and the gateway's front): a POST's SSE stream waits for
// its first message. An answer that comes first goes as one JSON body; progress (or any message before the
// answer) opens the stream at once, primed; a call silent past the delay gets its stream then.

import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { Deadlines, type Due } from '../../src/transport/http/deadlines.js';
import { EventReader, Gate, listen, openSession, post, type Session } from '../support/http-helpers.js';
import { deferred } from '../support/jsonrpc-peer.js';

type Listening = Awaited<ReturnType<typeof listen>>;

const call = (id: number, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args, _meta: { progressToken: `p${id}` } },
});

describe('POST with streamAfter: JSON when the answer comes first, SSE otherwise', {
  timeout: 20_000,
}, () => {
  let slow: Listening;
  let fast: Listening;
  let slowSession: Session;
  let fastSession: Session;
  const silentGate = { current: new Gate() };

  before(async () => {
    slow = await listen({ streamAfter: 60_000 });
    fast = await listen({ streamAfter: 1 });
    fast.server.tool({ name: 'silent', description: 'Waits for the test, saying nothing' }, async () => {
      await silentGate.current.opened;
      return { content: [{ type: 'text', text: 'done' }] };
    });
    slowSession = await openSession(slow.listener.url);
    fastSession = await openSession(fast.listener.url);
  });

  after(async () => {
    await slow?.listener.close();
    await fast?.listener.close();
  });

  it('answers initialize and a quick call with one JSON body, session id included', async () => {
    const response = await post(slow.listener.url, call(2, 'echo', { text: 'quick' }), slowSession.headers);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(response.headers.get('mcp-session-id'), slowSession.id);
    const body = (await response.json()) as { id: number; result: { content: Array<{ text: string }> } };
    assert.equal(body.id, 2);
    assert.equal(body.result.content[0]?.text, 'quick');
  });

  it('opens the SSE stream, primed, when progress comes before the answer', async () => {
    slow.gate.current = new Gate();
    const response = await post(slow.listener.url, call(3, 'wait'), slowSession.headers);
    const reader = new EventReader(response);
    const priming = await reader.next();
    assert.ok(priming?.id, 'the stream starts with an event id');
    assert.equal(priming?.data, '');
    const progress = await reader.nextMessage();
    assert.equal(progress.message.method, 'notifications/progress');
    slow.gate.current.open();
    let answer = await reader.nextMessage();
    while (answer.message.method !== undefined) answer = await reader.nextMessage();
    assert.equal(answer.message.id, 3);
    assert.equal(await reader.next(), undefined, 'the stream ends after the answer');
  });

  it('opens the stream after the delay for a call that says nothing', async () => {
    silentGate.current = new Gate();
    // fetch resolves with the headers: they come when the delay has passed, before the answer.
    const response = await post(fast.listener.url, call(4, 'silent'), fastSession.headers);
    const reader = new EventReader(response);
    const priming = await reader.next();
    assert.ok(priming?.id);
    silentGate.current.open();
    const answer = await reader.nextMessage();
    assert.equal(answer.message.id, 4);
  });

  it('gives a client that accepts only SSE a stream, as before', async () => {
    const response = await post(slow.listener.url, call(5, 'echo', { text: 'sse only' }), {
      ...slowSession.headers,
      Accept: 'text/event-stream',
    });
    const reader = new EventReader(response);
    const answer = await reader.nextMessage();
    assert.equal(answer.message.id, 5);
  });
});

// The one timer behind streamAfter and the POST body's stall limit (src/transport/http/deadlines.ts): what
// is due fires once, what was deleted never does, and a deadline moved later fires only when it is due.

function entry(at: number, fired: string[], name: string, done?: () => void): Due {
  return {
    at,
    fire: () => {
      fired.push(name);
      done?.();
    },
  };
}

describe('Deadlines', () => {
  // The timer is unreferenced (it keeps no process alive): something must, while a test waits for it.
  let keepAlive: ReturnType<typeof setInterval>;
  // Each test's own clock, set by hand, its deadlines, and the names of those that fired, in order.
  let clock: number;
  let deadlines: Deadlines;
  let fired: string[];
  beforeEach(() => {
    keepAlive = setInterval(() => {}, 60_000);
    clock = 0;
    deadlines = new Deadlines(() => clock);
    fired = [];
  });
  afterEach(() => clearInterval(keepAlive));

  it('fires what is due, in one timer, and not what was deleted', async () => {
    const both = deferred();
    const first = entry(5, fired, 'first');
    const gone = entry(5, fired, 'gone');
    deadlines.add(first);
    deadlines.add(gone);
    deadlines.add(entry(10, fired, 'second', both.resolve));
    deadlines.delete(gone);
    clock = 20;
    await both.promise;
    assert.deepEqual(fired, ['first', 'second']);
    assert.equal(deadlines.size, 0);
  });

  it('keeps every other deadline when one is deleted from any place, and holds an entry once', async () => {
    const done = deferred();
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => entry(5, fired, name));
    for (const e of [a!, b!, c!, d!]) deadlines.add(e);
    deadlines.add(b!);
    // Deleting the first moves the last into its place; that one, deleted next, must go from there.
    deadlines.delete(a!);
    deadlines.delete(d!);
    deadlines.delete(a!);
    assert.equal(deadlines.size, 2);
    // One that fires adds another already due: it fires too, without waiting for a later deadline.
    deadlines.add({ at: 5, fire: () => deadlines.add(entry(5, fired, 'added', done.resolve)) });
    clock = 10;
    await done.promise;
    assert.deepEqual(fired.sort(), ['added', 'b', 'c']);
    assert.equal(deadlines.size, 0);
  });

  it('does not fire a due deadline that one firing before it deleted', async () => {
    const marker = deferred();
    const victim = entry(5, fired, 'victim');
    deadlines.add({
      at: 5,
      fire: () => {
        fired.push('killer');
        deadlines.delete(victim);
      },
    });
    deadlines.add(victim);
    deadlines.add(entry(6, fired, 'marker', marker.resolve));
    clock = 10;
    await marker.promise;
    assert.deepEqual(fired, ['killer', 'marker']);
  });

  it('fires a deadline moved later only once it is due', async () => {
    const moved = deferred();
    const stall = entry(1, fired, 'stall', moved.resolve);
    deadlines.add(stall);
    // Bytes arrived: the deadline moves; when the timer fires for the old one, it is not due yet.
    stall.at = 3;
    const marker = deferred();
    deadlines.add(entry(1, fired, 'marker', marker.resolve));
    clock = 2;
    await marker.promise;
    assert.deepEqual(fired, ['marker']);
    clock = 5;
    await moved.promise;
    assert.deepEqual(fired, ['marker', 'stall']);
  });
});
