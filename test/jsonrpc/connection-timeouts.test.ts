// Timeouts of outgoing requests: a default (60 s) that users can change, a per-request override, an
// optional reset of the timer on progress, a maximum total time; a timeout rejects with a typed error and
// cancels the request at the peer, whose late answer is then ignored.
//
// Short real timeouts are awaited as rejections; the 60 s default runs on a fake clock.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CANCELLED_NOTIFICATION } from '../../src/jsonrpc/cancellation.js';
import { PROGRESS_NOTIFICATION } from '../../src/jsonrpc/connection.js';
import { RequestTimeoutError } from '../../src/jsonrpc/errors.js';
import { FakeClock } from '../support/fake-clock.js';
import { connect, drain, type FakePeer, settled } from './harness.js';

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

/** Sends progress for `token` every `everyMs`; returns the function that stops it. */
function reportProgress(peer: FakePeer, token: unknown, everyMs: number): () => void {
  let count = 0;
  const timer = setInterval(() => {
    count++;
    peer.deliver({
      jsonrpc: '2.0',
      method: PROGRESS_NOTIFICATION,
      params: { progressToken: token, progress: count },
    });
  }, everyMs);
  return () => clearInterval(timer);
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

  it('uses the connection-wide default the user sets', async () => {
    const { connection } = connect({ timeout: 30 });
    await assert.rejects(connection.request('slow'), isTimeout('idle', 30));
  });

  it('lets one request override the default, either way', async () => {
    const { connection, peer } = connect({ timeout: 60 });
    const shorter = connection.request('slow', undefined, { timeout: 20 });
    const longer = settled(connection.request('patient', undefined, { timeout: 10_000 }));
    const normal = connection.request('normal');
    await assert.rejects(shorter, isTimeout('idle', 20));
    await assert.rejects(normal, isTimeout('idle', 60, 'normal'));
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

  it('cancels a timed-out request at the peer, then ignores its late response', async () => {
    const { connection, peer, problems } = connect();
    const request = connection.request('slow', { a: 1 }, { timeout: 20 });
    const id = peer.messages()[0]?.id;
    await assert.rejects(request, isTimeout('idle', 20));
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

  it('does not reset the timer on progress unless asked to', async () => {
    const { connection, peer } = connect();
    const request = connection.request('slow', {}, { timeout: 80, onProgress: () => {} });
    const token = tokenOf(peer.messages()[0]);
    const stop = reportProgress(peer, token, 10);
    try {
      await assert.rejects(request, isTimeout('idle', 80));
    } finally {
      stop();
    }
  });

  it('restarts the timer on each progress with resetTimeoutOnProgress', async () => {
    const { connection, peer } = connect();
    const started = performance.now();
    let id: unknown;
    const request = connection.request(
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
    );
    const sent = peer.messages()[0]!;
    id = sent.id;
    const token = tokenOf(sent);
    const stop = reportProgress(peer, token, 10);
    try {
      assert.equal(await request, 'done');
    } finally {
      stop();
    }
    assert.ok(performance.now() - started > 150, 'the request did not outlive its idle timeout');
  });

  it('takes resetTimeoutOnProgress as a connection-wide default', async () => {
    const { connection, peer } = connect({
      timeout: 100,
      resetTimeoutOnProgress: true,
      maxTotalTimeout: 250,
    });
    const request = connection.request('slow', {}, { onProgress: () => {} });
    const token = tokenOf(peer.messages()[0]);
    const stop = reportProgress(peer, token, 10);
    try {
      // Kept alive by progress past its 100 ms idle timeout, it ends at the maximum total time.
      await assert.rejects(request, isTimeout('total', 250));
    } finally {
      stop();
    }
  });

  it('fails a request at its maximum total time whatever progress it reports', async () => {
    const { connection, peer } = connect();
    const request = connection.request(
      'slow',
      {},
      {
        timeout: 100,
        resetTimeoutOnProgress: true,
        maxTotalTimeout: 250,
        onProgress: () => {},
      },
    );
    const id = peer.messages()[0]?.id;
    const token = tokenOf(peer.messages()[0]);
    const stop = reportProgress(peer, token, 10);
    try {
      await assert.rejects(request, isTimeout('total', 250));
    } finally {
      stop();
    }
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
});
