// Timeouts of outgoing requests: a default (60 s) that users can change, a per-request override, an
// optional reset of the timer on progress, a maximum total time; a timeout rejects with a typed error and
// cancels the request at the peer, whose late answer is then ignored.
//
// Every test runs on a fake clock: a timeout is shown to fire at its deadline and not a millisecond before,
// which waiting for real short timeouts could not show, and no test spends real time waiting.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CANCELLED_NOTIFICATION } from '../../src/jsonrpc/cancellation.js';
import { PROGRESS_NOTIFICATION } from '../../src/jsonrpc/connection.js';
import { RequestTimeoutError } from '../../src/jsonrpc/errors.js';
import { FakeClock } from '../support/fake-clock.js';
import { connect, drain, type FakePeer, settled } from '../support/jsonrpc-peer.js';

function isTimeout(kind: 'idle' | 'total', ms: number, method = 'slow') {
  return (error: unknown) => {
    assert.ok(error instanceof RequestTimeoutError, `not a RequestTimeoutError: ${String(error)}`);
    assert.equal(error.name, 'RequestTimeoutError');
    assert.equal(error.kind, kind);
    assert.equal(error.timeoutMs, ms);
    assert.equal(error.method, method);
    assert.match(error.message, new RegExp(`${ms} ms`));
    assert.match(error.message, kind === 'idle' ? /"timeout"/ : /"maxTotalTimeout"/);
    return true;
  };
}

/** The progress token a request was sent with. */
function tokenOf(message: Record<string, unknown> | undefined): unknown {
  const token = (message?.params as { _meta?: { progressToken?: unknown } } | undefined)?._meta
    ?.progressToken;
  assert.ok(token !== undefined, `no progress token in ${JSON.stringify(message)}`);
  return token;
}

/**
 * The peer's progress for `token`: `every(ms, until)` moves the clock on in steps of `ms` up to `until` ms
 * after the clock's start, reporting progress after each step (counted from 1), as a peer working on the
 * request would. The count carries on from one call to the next.
 */
function progressOf(clock: FakeClock, peer: FakePeer, token: unknown) {
  let count = 0;
  return {
    async every(everyMs: number, untilMs: number): Promise<void> {
      while (clock.now + everyMs <= untilMs) {
        await clock.advance(everyMs);
        count++;
        peer.deliver({
          jsonrpc: '2.0',
          method: PROGRESS_NOTIFICATION,
          params: { progressToken: token, progress: count },
        });
      }
    },
  };
}

describe('connection timeouts', () => {
  it('times out after 60 s by default, not before', async (t) => {
    const clock = new FakeClock().install();
    t.after(() => clock.uninstall());
    const { connection } = connect();
    const result = settled(connection.request('slow'));
    await clock.advance(59_999);
    assert.equal(result.state(), 'pending');
    await clock.advance(1);
    assert.equal(result.state(), 'rejected');
    assert.ok(isTimeout('idle', 60_000)(result.error()));
  });

  it('uses the connection-wide default the user sets', async (t) => {
    const clock = new FakeClock().install();
    t.after(() => clock.uninstall());
    const { connection } = connect({ timeout: 30 });
    const result = settled(connection.request('slow'));
    await clock.advance(29);
    assert.equal(result.state(), 'pending');
    await clock.advance(1);
    assert.equal(result.state(), 'rejected');
    assert.ok(isTimeout('idle', 30)(result.error()));
  });

  it('lets one request override the default, either way', async (t) => {
    const clock = new FakeClock().install();
    t.after(() => clock.uninstall());
    const { connection, peer } = connect({ timeout: 60 });
    const shorter = settled(connection.request('slow', undefined, { timeout: 20 }));
    const longer = settled(connection.request('patient', undefined, { timeout: 10_000 }));
    const normal = settled(connection.request('normal'));
    await clock.advance(20);
    assert.equal(shorter.state(), 'rejected');
    assert.ok(isTimeout('idle', 20)(shorter.error()));
    assert.equal(normal.state(), 'pending', 'the shorter timeout of one request shortened another');
    await clock.advance(40);
    assert.equal(normal.state(), 'rejected');
    assert.ok(isTimeout('idle', 60, 'normal')(normal.error()));
    assert.equal(longer.state(), 'pending');
    const id = peer.messages().find((m) => m.method === 'patient')?.id;
    peer.deliver({ jsonrpc: '2.0', id, result: 'worth the wait' });
    await drain();
    assert.equal(longer.value(), 'worth the wait');
  });

  it('never times out with timeout 0', async (t) => {
    const clock = new FakeClock().install();
    t.after(() => clock.uninstall());
    const { connection, peer } = connect({ timeout: 0 });
    const result = settled(connection.request('slow'));
    await clock.advance(24 * 3600 * 1000);
    assert.equal(result.state(), 'pending');
    peer.deliver({ jsonrpc: '2.0', id: peer.messages()[0]?.id, result: 'eventually' });
    await drain();
    assert.equal(result.value(), 'eventually');
  });

  it('cancels a timed-out request at the peer, then ignores its late response', async (t) => {
    const clock = new FakeClock().install();
    t.after(() => clock.uninstall());
    const { connection, peer, problems } = connect();
    const request = settled(connection.request('slow', { a: 1 }, { timeout: 20 }));
    const id = peer.messages()[0]?.id;
    await clock.advance(19);
    assert.equal(request.state(), 'pending');
    assert.deepEqual(peer.notifications(CANCELLED_NOTIFICATION), [], 'cancelled before its timeout');
    await clock.advance(1);
    assert.ok(isTimeout('idle', 20)(request.error()));
    const cancels = peer.notifications(CANCELLED_NOTIFICATION);
    assert.equal(cancels.length, 1);
    const params = cancels[0]?.params as { requestId: unknown; reason?: unknown };
    assert.equal(params.requestId, id);
    assert.equal(typeof params.reason, 'string');
    assert.match(params.reason as string, /timed out/);
    // The peer answers anyway: ignored, reported, not fatal.
    peer.deliver({ jsonrpc: '2.0', id, result: 'too late' });
    assert.equal(problems.at(-1)?.kind, 'unknown-response');
    assert.equal(connection.closed, undefined);
  });

  it('does not reset the timer on progress unless asked to', async (t) => {
    const clock = new FakeClock().install();
    t.after(() => clock.uninstall());
    const { connection, peer } = connect();
    const request = settled(connection.request('slow', {}, { timeout: 80, onProgress: () => {} }));
    const progress = progressOf(clock, peer, tokenOf(peer.messages()[0]));
    // Progress every 10 ms up to 70 ms: had any of it reset the timer, the request would live past 80 ms.
    await progress.every(10, 70);
    await clock.advance(9);
    assert.equal(request.state(), 'pending');
    await clock.advance(1);
    assert.equal(request.state(), 'rejected');
    assert.ok(isTimeout('idle', 80)(request.error()));
  });

  it('restarts the timer on each progress with resetTimeoutOnProgress', async (t) => {
    const clock = new FakeClock().install();
    t.after(() => clock.uninstall());
    const { connection, peer } = connect();
    const started = performance.now();
    let id: unknown;
    const request = settled(
      connection.request(
        'slow',
        {},
        {
          timeout: 150,
          resetTimeoutOnProgress: true,
          // Answer well past the timeout, so that only the resets can have kept the request alive.
          onProgress: (p) => {
            if (p.progress === 30) queueMicrotask(() => peer.deliver({ jsonrpc: '2.0', id, result: 'done' }));
          },
        },
      ),
    );
    const sent = peer.messages()[0]!;
    id = sent.id;
    const progress = progressOf(clock, peer, tokenOf(sent));
    await progress.every(10, 300);
    await drain();
    assert.equal(request.state(), 'fulfilled', `the request did not live on: ${String(request.error())}`);
    assert.equal(request.value(), 'done');
    assert.ok(performance.now() - started > 150, 'the request did not outlive its idle timeout');
  });

  it('takes resetTimeoutOnProgress as a connection-wide default', async (t) => {
    const clock = new FakeClock().install();
    t.after(() => clock.uninstall());
    const { connection, peer } = connect({
      timeout: 100,
      resetTimeoutOnProgress: true,
      maxTotalTimeout: 250,
    });
    const request = settled(connection.request('slow', {}, { onProgress: () => {} }));
    const progress = progressOf(clock, peer, tokenOf(peer.messages()[0]));
    // Kept alive by progress past its 100 ms idle timeout, it ends at the maximum total time.
    await progress.every(10, 240);
    await clock.advance(9);
    assert.equal(request.state(), 'pending', 'progress did not keep the request past its idle timeout');
    await clock.advance(1);
    assert.equal(request.state(), 'rejected');
    assert.ok(isTimeout('total', 250)(request.error()));
  });

  it('fails a request at its maximum total time whatever progress it reports', async (t) => {
    const clock = new FakeClock().install();
    t.after(() => clock.uninstall());
    const { connection, peer } = connect();
    const request = settled(
      connection.request(
        'slow',
        {},
        {
          timeout: 100,
          resetTimeoutOnProgress: true,
          maxTotalTimeout: 250,
          onProgress: () => {},
        },
      ),
    );
    const id = peer.messages()[0]?.id;
    const progress = progressOf(clock, peer, tokenOf(peer.messages()[0]));
    await progress.every(10, 240);
    await clock.advance(9);
    assert.equal(request.state(), 'pending');
    assert.deepEqual(peer.notifications(CANCELLED_NOTIFICATION), []);
    await clock.advance(1);
    assert.equal(request.state(), 'rejected');
    assert.ok(isTimeout('total', 250)(request.error()));
    const [cancel] = peer.notifications(CANCELLED_NOTIFICATION);
    const params = cancel?.params as { requestId: unknown; reason: string } | undefined;
    assert.equal(params?.requestId, id);
    assert.match(params?.reason ?? '', /maximum total time/);
  });

  it('clears the timers of answered requests: no cancellation is sent for them later', async (t) => {
    const clock = new FakeClock().install();
    t.after(() => clock.uninstall());
    const { connection, peer } = connect({ timeout: 1000, maxTotalTimeout: 2000 });
    const request = connection.request('quick');
    peer.deliver({ jsonrpc: '2.0', id: peer.messages()[0]?.id, result: 'ok' });
    assert.equal(await request, 'ok');
    assert.equal(
      clock.referenced,
      0,
      'a timer outlived the last pending request and keeps the process alive',
    );
    await clock.advance(5000);
    assert.deepEqual(peer.notifications(CANCELLED_NOTIFICATION), []);
  });

  it('times a request sent after an idle spell from its own start, not from the timer set before', async (t) => {
    const clock = new FakeClock().install();
    t.after(() => clock.uninstall());
    const { connection, peer } = connect({ timeout: 60_000 });
    const first = connection.request('quick');
    peer.deliver({ jsonrpc: '2.0', id: peer.messages()[0]?.id, result: 'ok' });
    assert.equal(await first, 'ok');
    await clock.advance(30_000);
    const second = settled(connection.request('slow'));
    assert.equal(clock.referenced, 1, 'a pending request must keep its timer referenced');
    await clock.advance(30_000);
    assert.equal(second.state(), 'pending', 'timed out on the deadline of the request before it');
    await clock.advance(29_999);
    assert.equal(second.state(), 'pending');
    await clock.advance(1);
    assert.ok(isTimeout('idle', 60_000)(second.error()));
  });

  it('times many requests in flight with one timer, each at its own deadline', async (t) => {
    const clock = new FakeClock().install();
    t.after(() => clock.uninstall());
    const { connection, peer } = connect({ timeout: 1000 });
    const early = [settled(connection.request('slow')), settled(connection.request('slow'))];
    await clock.advance(400);
    const late = [settled(connection.request('slow')), settled(connection.request('slow'))];
    // A shorter timeout asked for later moves the one timer earlier.
    const shortest = settled(connection.request('slow', undefined, { timeout: 100 }));
    assert.equal(clock.pending, 1);
    await clock.advance(100);
    assert.equal(shortest.state(), 'rejected');
    assert.ok(isTimeout('idle', 100)(shortest.error()));
    await clock.advance(499);
    assert.deepEqual(
      [...early, ...late].map((r) => r.state()),
      ['pending', 'pending', 'pending', 'pending'],
    );
    await clock.advance(1);
    assert.deepEqual(
      [...early, ...late].map((r) => r.state()),
      ['rejected', 'rejected', 'pending', 'pending'],
    );
    await clock.advance(399);
    assert.deepEqual(
      late.map((r) => r.state()),
      ['pending', 'pending'],
    );
    await clock.advance(1);
    assert.deepEqual(
      late.map((r) => r.state()),
      ['rejected', 'rejected'],
    );
    assert.equal(peer.notifications(CANCELLED_NOTIFICATION).length, 5);
    assert.equal(clock.pending, 0);
  });

  it('restarts a timeout on progress without a timer of its own, and still ends it at the total limit', async (t) => {
    const clock = new FakeClock().install();
    t.after(() => clock.uninstall());
    const { connection, peer } = connect({ timeout: 1000, maxTotalTimeout: 2500 });
    const result = settled(
      connection.request('slow', {}, { onProgress: () => {}, resetTimeoutOnProgress: true }),
    );
    const token = tokenOf(peer.messages()[0]);
    const progress = (count: number) =>
      peer.deliver({
        jsonrpc: '2.0',
        method: PROGRESS_NOTIFICATION,
        params: { progressToken: token, progress: count },
      });
    await clock.advance(900);
    progress(1);
    await clock.advance(999);
    assert.equal(result.state(), 'pending', 'progress at 900 ms should have moved the deadline to 1900 ms');
    progress(2);
    await clock.advance(600);
    assert.equal(result.state(), 'pending');
    await clock.advance(1);
    assert.equal(result.state(), 'rejected');
    assert.ok(isTimeout('total', 2500)(result.error()));
  });

  // The transport holding its messages (an HTTP client waiting for its user to log in) is no slowness of
  // the peer: the CI run where the conformance client's server/discover probe gave up during a slow login
  // and fell back to initialize is the reason.
  it('stands an idle timeout still while the transport holds its messages', async (t) => {
    const clock = new FakeClock().install();
    t.after(() => clock.uninstall());
    const { connection, peer } = connect({ timeout: 1000 });
    const result = settled(connection.request('slow'));
    await clock.advance(400);
    peer.hold(true);
    await clock.advance(60_000);
    assert.equal(result.state(), 'pending', 'a minute of hold is not a minute of waiting for the peer');
    peer.hold(false);
    await clock.advance(599);
    assert.equal(result.state(), 'pending', '400 ms before the hold and 599 after are under the 1000 ms');
    await clock.advance(1);
    assert.equal(result.state(), 'rejected');
    assert.ok(isTimeout('idle', 1000)(result.error()));
  });

  it('counts a request sent during a hold from the release', async (t) => {
    const clock = new FakeClock().install();
    t.after(() => clock.uninstall());
    const { connection, peer } = connect({ timeout: 1000 });
    peer.hold(true);
    await clock.advance(300);
    const result = settled(connection.request('slow'));
    await clock.advance(5000);
    peer.hold(false);
    await clock.advance(999);
    assert.equal(result.state(), 'pending');
    await clock.advance(1);
    assert.equal(result.state(), 'rejected');
    assert.ok(isTimeout('idle', 1000)(result.error()));
  });

  it('lets holds overlap, and ignores a release that follows no hold', async (t) => {
    const clock = new FakeClock().install();
    t.after(() => clock.uninstall());
    const { connection, peer } = connect({ timeout: 1000 });
    peer.hold(false);
    const result = settled(connection.request('slow'));
    peer.hold(true);
    peer.hold(true);
    await clock.advance(2000);
    peer.hold(false);
    await clock.advance(2000);
    assert.equal(result.state(), 'pending', 'one of two holds is still on');
    peer.hold(false);
    peer.hold(false);
    await clock.advance(999);
    assert.equal(result.state(), 'pending');
    await clock.advance(1);
    assert.equal(result.state(), 'rejected');
  });

  it('keeps the total limit running through a hold', async (t) => {
    const clock = new FakeClock().install();
    t.after(() => clock.uninstall());
    const { connection, peer } = connect({ timeout: 1000, maxTotalTimeout: 2500 });
    const result = settled(connection.request('slow'));
    peer.hold(true);
    await clock.advance(2499);
    assert.equal(result.state(), 'pending');
    await clock.advance(1);
    assert.equal(result.state(), 'rejected');
    assert.ok(isTimeout('total', 2500)(result.error()));
    assert.equal(peer.notifications(CANCELLED_NOTIFICATION).length, 1);
  });
});
