// Progress routing: a request sent with onProgress carries a progress token, and each
// notifications/progress for that token reaches that request's callback, and no other; on the handling
// side, the context knows the peer's token and sends progress for it until the response.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Connection, PROGRESS_NOTIFICATION, type Progress } from '../../src/jsonrpc/connection.js';
import { createInMemoryPair } from '../../src/transport/memory.js';
import { connect, deferred, drain, type FakePeer } from '../support/jsonrpc-peer.js';

function tokenOf(message: Record<string, unknown> | undefined): string | number {
  const token = (message?.params as { _meta?: { progressToken?: unknown } } | undefined)?._meta
    ?.progressToken;
  assert.ok(
    typeof token === 'string' || typeof token === 'number',
    `no progress token in ${JSON.stringify(message)}`,
  );
  return token;
}

function progress(peer: FakePeer, progressToken: unknown, fields: Record<string, unknown>): void {
  peer.deliver({ jsonrpc: '2.0', method: PROGRESS_NOTIFICATION, params: { progressToken, ...fields } });
}

describe('connection progress: outgoing requests', () => {
  it('adds a progress token to the params, keeping the params and _meta the caller gave', () => {
    const { connection, peer } = connect({ timeout: 0 });
    connection.request('work', { a: 1, _meta: { other: 'kept' } }, { onProgress: () => {} }).catch(() => {});
    connection.request('bare', undefined, { onProgress: () => {} }).catch(() => {});
    connection.request('plain', { a: 1 }).catch(() => {});
    const [work, bare, plain] = peer.messages();
    const token = tokenOf(work);
    assert.deepEqual(work?.params, { a: 1, _meta: { other: 'kept', progressToken: token } });
    assert.deepEqual(bare?.params, { _meta: { progressToken: tokenOf(bare) } });
    assert.notEqual(tokenOf(bare), token, 'two requests in flight share a progress token');
    assert.deepEqual(plain?.params, { a: 1 }, 'a token was added without onProgress');
  });

  it('routes each progress to the callback of the request that carries its token, in order', async () => {
    const { connection, peer } = connect();
    const seenA: Progress[] = [];
    const seenB: Progress[] = [];
    const a = connection.request('a', {}, { onProgress: (p) => seenA.push(p) });
    const b = connection.request('b', {}, { onProgress: (p) => seenB.push(p) });
    const [sentA, sentB] = peer.messages();
    progress(peer, tokenOf(sentA), { progress: 1, total: 3 });
    progress(peer, tokenOf(sentB), { progress: 10, message: 'b is going' });
    progress(peer, tokenOf(sentA), { progress: 2, total: 3, message: 'two of three' });
    peer.deliver({ jsonrpc: '2.0', id: sentA?.id, result: 'a' });
    peer.deliver({ jsonrpc: '2.0', id: sentB?.id, result: 'b' });
    assert.deepEqual(await Promise.all([a, b]), ['a', 'b']);
    assert.deepEqual(seenA, [
      { progress: 1, total: 3 },
      { progress: 2, total: 3, message: 'two of three' },
    ]);
    assert.deepEqual(seenB, [{ progress: 10, message: 'b is going' }]);
  });

  it('routes by the exact token: a number token does not take progress for its string form', async () => {
    const { connection, peer } = connect({ timeout: 0 });
    const seen: Progress[] = [];
    const others: unknown[] = [];
    connection.onNotification(PROGRESS_NOTIFICATION, (params) => others.push(params));
    connection.request('a', {}, { onProgress: (p) => seen.push(p) }).catch(() => {});
    const token = tokenOf(peer.messages()[0]);
    const twin = typeof token === 'number' ? String(token) : Number(token);
    progress(peer, twin, { progress: 5 });
    assert.deepEqual(seen, []);
    assert.deepEqual(others, [{ progressToken: twin, progress: 5 }]);
  });

  it('stops routing once the request is answered; later progress goes to the notification handlers', async () => {
    const { connection, peer } = connect();
    const seen: Progress[] = [];
    const others: Array<[string, unknown]> = [];
    connection.onOtherNotification((method, params) => others.push([method, params]));
    const request = connection.request('a', {}, { onProgress: (p) => seen.push(p) });
    const sent = peer.messages()[0];
    const token = tokenOf(sent);
    progress(peer, token, { progress: 1 });
    peer.deliver({ jsonrpc: '2.0', id: sent?.id, result: null });
    await request;
    progress(peer, token, { progress: 2 });
    assert.deepEqual(seen, [{ progress: 1 }]);
    assert.deepEqual(others, [[PROGRESS_NOTIFICATION, { progressToken: token, progress: 2 }]]);
  });

  it('passes progress for unknown tokens to the notification handler, and sends nothing back', async () => {
    const { connection, peer } = connect();
    const others: unknown[] = [];
    connection.onNotification(PROGRESS_NOTIFICATION, (params) => others.push(params));
    progress(peer, 'nobody', { progress: 1 });
    await drain();
    assert.deepEqual(others, [{ progressToken: 'nobody', progress: 1 }]);
    assert.deepEqual(peer.sent, []);
  });

  it('reports a progress callback that throws, and the request still completes', async () => {
    const { connection, peer, problems } = connect();
    const request = connection.request(
      'a',
      {},
      {
        onProgress: () => {
          throw new Error('callback broke');
        },
      },
    );
    const sent = peer.messages()[0];
    assert.doesNotThrow(() => progress(peer, tokenOf(sent), { progress: 1 }));
    peer.deliver({ jsonrpc: '2.0', id: sent?.id, result: 'done' });
    assert.equal(await request, 'done');
    assert.equal(problems[0]?.kind, 'notification-error');
  });

  it('keeps positional (array) params when a progress callback is given', {}, () => {
    const { connection, peer } = connect({ timeout: 0 });
    connection.request('sum', [1, 2, 3], { onProgress: () => {} }).catch(() => {});
    const sent = peer.messages()[0];
    assert.ok(Array.isArray(sent?.params), `params sent: ${JSON.stringify(sent?.params)}`);
    assert.deepEqual(sent?.params, [1, 2, 3]);
  });
});

describe('connection progress: handling side', () => {
  it("exposes the peer's token and sends progress for it, related to the request, until the response", async () => {
    const { connection, peer } = connect();
    const gate = deferred<void>();
    let context: { progressToken: unknown; sendProgress(p: Progress): void } | undefined;
    connection.onRequest('work', async (_params, ctx) => {
      context = ctx;
      ctx.sendProgress({ progress: 1, total: 2 });
      await gate.promise;
      ctx.sendProgress({ progress: 2, total: 2, message: 'done' });
      return 'ok';
    });
    const response = peer.call('w', 'work', { _meta: { progressToken: 'tok-1' } });
    gate.resolve();
    assert.equal((await response).result, 'ok');
    context?.sendProgress({ progress: 3 });
    assert.equal(context?.progressToken, 'tok-1');
    assert.deepEqual(peer.sent, [
      {
        jsonrpc: '2.0',
        method: PROGRESS_NOTIFICATION,
        params: { progressToken: 'tok-1', progress: 1, total: 2 },
      },
      {
        jsonrpc: '2.0',
        method: PROGRESS_NOTIFICATION,
        params: { progressToken: 'tok-1', progress: 2, total: 2, message: 'done' },
      },
      { jsonrpc: '2.0', id: 'w', result: 'ok' },
    ]);
    assert.deepEqual(
      peer.sendOptions.map((o) => o?.relatedRequestId),
      ['w', 'w', undefined],
    );
  });

  it('keeps the exact type of the token (0 stays a number) and sends nothing without one', async () => {
    const { connection, peer } = connect();
    connection.onRequest('work', (_params, ctx) => {
      ctx.sendProgress({ progress: 1 });
      return ctx.progressToken ?? 'no token';
    });
    assert.equal((await peer.call(1, 'work', { _meta: { progressToken: 0 } })).result, 0);
    assert.equal((await peer.call(2, 'work', {})).result, 'no token');
    assert.deepEqual(
      peer.notifications(PROGRESS_NOTIFICATION).map((n) => n.params),
      [{ progressToken: 0, progress: 1 }],
    );
  });

  it('carries progress end to end between two connections', async () => {
    const [aSide, bSide] = createInMemoryPair();
    const client = new Connection(aSide);
    const server = new Connection(bSide);
    server.onRequest('count', async (params, ctx) => {
      const { to } = params as { to: number };
      for (let i = 1; i <= to; i++) {
        ctx.sendProgress({ progress: i, total: to });
        await Promise.resolve();
      }
      return to;
    });
    client.start();
    server.start();
    const seen: Progress[] = [];
    assert.equal(await client.request('count', { to: 3 }, { onProgress: (p) => seen.push(p) }), 3);
    assert.deepEqual(seen, [
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
      { progress: 3, total: 3 },
    ]);
    await client.close();
  });
});
