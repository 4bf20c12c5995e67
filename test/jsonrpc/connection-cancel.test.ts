// Cancellation with AbortSignal: aborting a request sends notifications/cancelled and rejects it; an
// incoming cancellation aborts the handler's signal and suppresses its response; a late response to a
// cancelled request is ignored.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { abortCancellation, CANCELLED_NOTIFICATION } from '../../src/jsonrpc/cancellation.js';
import { type AbortHook, Connection, type ConnectionProblem } from '../../src/jsonrpc/connection.js';
import { RequestCancelledError } from '../../src/jsonrpc/errors.js';
import { createInMemoryPair } from '../../src/transport/memory.js';
import { connect, deferred, drain } from '../support/jsonrpc-peer.js';

describe('connection cancel: outgoing requests', () => {
  it('sends notifications/cancelled with the exact id and rejects with RequestCancelledError', async () => {
    const { connection, peer } = connect();
    const controller = new AbortController();
    const request = connection.request('slow', { x: 1 }, { signal: controller.signal });
    const id = peer.messages()[0]?.id;
    controller.abort(new Error('the user pressed stop'));
    await assert.rejects(request, (error: unknown) => {
      assert.ok(error instanceof RequestCancelledError);
      assert.equal(error.method, 'slow');
      assert.match(error.message, /the user pressed stop/);
      return true;
    });
    const cancels = peer.notifications(CANCELLED_NOTIFICATION);
    assert.deepEqual(cancels, [
      {
        jsonrpc: '2.0',
        method: CANCELLED_NOTIFICATION,
        params: { requestId: id, reason: 'the user pressed stop' },
      },
    ]);
  });

  it('gives a reason even when the signal was aborted without one', async () => {
    const { connection, peer } = connect();
    const controller = new AbortController();
    const request = connection.request('slow', undefined, { signal: controller.signal });
    controller.abort();
    await assert.rejects(request, RequestCancelledError);
    const params = peer.notifications(CANCELLED_NOTIFICATION)[0]?.params as { reason?: unknown };
    assert.equal(typeof params.reason, 'string');
    assert.ok((params.reason as string).length > 0);
  });

  it('rejects at once, sending nothing, when the signal is already aborted', async () => {
    const { connection, peer } = connect();
    await assert.rejects(
      connection.request('slow', {}, { signal: AbortSignal.abort() }),
      RequestCancelledError,
    );
    assert.deepEqual(peer.sent, []);
  });

  it('ignores a late response to a cancelled request, and reports it', async () => {
    const { connection, peer, problems } = connect();
    const controller = new AbortController();
    const request = connection.request('slow', undefined, { signal: controller.signal });
    const id = peer.messages()[0]?.id;
    controller.abort();
    await assert.rejects(request, RequestCancelledError);
    assert.doesNotThrow(() => peer.deliver({ jsonrpc: '2.0', id, result: 'late' }));
    assert.equal(problems.at(-1)?.kind, 'unknown-response');
    assert.equal(connection.closed, undefined);
  });

  it('does nothing when the signal is aborted after the response', async () => {
    const { connection, peer } = connect();
    const controller = new AbortController();
    const request = connection.request('quick', undefined, { signal: controller.signal });
    peer.deliver({ jsonrpc: '2.0', id: peer.messages()[0]?.id, result: 'ok' });
    assert.equal(await request, 'ok');
    controller.abort();
    await drain();
    assert.deepEqual(peer.notifications(CANCELLED_NOTIFICATION), []);
  });

  it('cancels only the request whose signal fired, when one signal is not shared', async () => {
    const { connection, peer } = connect();
    const first = new AbortController();
    const a = connection.request('a', undefined, { signal: first.signal });
    const b = connection.request('b', undefined, { signal: new AbortController().signal });
    const [sentA, sentB] = peer.messages();
    first.abort();
    await assert.rejects(a, RequestCancelledError);
    peer.deliver({ jsonrpc: '2.0', id: sentB?.id, result: 'b still fine' });
    assert.equal(await b, 'b still fine');
    assert.deepEqual(
      peer.notifications(CANCELLED_NOTIFICATION).map((n) => (n.params as { requestId: unknown }).requestId),
      [sentA?.id],
    );
  });
});

describe('connection cancel: incoming cancellation', () => {
  it("aborts the handler's signal with the reason and sends no response", async () => {
    const { connection, peer } = connect();
    const started = deferred();
    const aborted = deferred<unknown>();
    connection.onRequest('slow', async (_params, context) => {
      started.resolve();
      await new Promise((resolve) => context.signal.addEventListener('abort', resolve, { once: true }));
      aborted.resolve(context.signal.reason);
      return 'finished anyway';
    });
    connection.onRequest('echo', (p) => p);
    peer.deliver({ jsonrpc: '2.0', id: 's1', method: 'slow' });
    await started.promise;
    peer.deliver({
      jsonrpc: '2.0',
      method: CANCELLED_NOTIFICATION,
      params: { requestId: 's1', reason: 'gave up' },
    });
    const reason = await aborted.promise;
    assert.ok(reason instanceof Error);
    assert.match(reason.message, /gave up/);
    await connection.whenIdle();
    assert.equal(connection.requestsInFlight, 0);
    assert.deepEqual(await peer.call('after', 'echo', { ok: true }), {
      jsonrpc: '2.0',
      id: 'after',
      result: { ok: true },
    });
    assert.deepEqual(peer.responsesTo('s1'), [], 'the cancelled request was answered');
  });

  it('suppresses the response of a handler that ignores its signal, error or not', async () => {
    const { connection, peer } = connect();
    const gate = deferred<void>();
    connection.onRequest('stubborn', async () => {
      await gate.promise;
      return 'ignored the cancel';
    });
    connection.onRequest('failing', async () => {
      await gate.promise;
      throw new Error('failed after the cancel');
    });
    peer.deliver({ jsonrpc: '2.0', id: 1, method: 'stubborn' });
    peer.deliver({ jsonrpc: '2.0', id: 2, method: 'failing' });
    peer.deliver({ jsonrpc: '2.0', method: CANCELLED_NOTIFICATION, params: { requestId: 1 } });
    peer.deliver({ jsonrpc: '2.0', method: CANCELLED_NOTIFICATION, params: { requestId: 2 } });
    gate.resolve();
    await connection.whenIdle();
    await drain();
    assert.deepEqual(peer.sent, []);
  });

  it('matches the cancelled id exactly: cancelling "1" leaves request 1 alone', async () => {
    const { connection, peer } = connect();
    const gate = deferred<string>();
    let signal: AbortSignal | undefined;
    connection.onRequest('wait', (_params, context) => {
      signal = context.signal;
      return gate.promise;
    });
    const response = peer.call(1, 'wait');
    peer.deliver({ jsonrpc: '2.0', method: CANCELLED_NOTIFICATION, params: { requestId: '1' } });
    peer.deliver({ jsonrpc: '2.0', method: CANCELLED_NOTIFICATION, params: { requestId: 2 } });
    peer.deliver({ jsonrpc: '2.0', method: CANCELLED_NOTIFICATION, params: { requestId: { id: 1 } } });
    peer.deliver({ jsonrpc: '2.0', method: CANCELLED_NOTIFICATION });
    assert.equal(signal?.aborted, false);
    gate.resolve('answered');
    assert.deepEqual(await response, { jsonrpc: '2.0', id: 1, result: 'answered' });
  });

  it('ignores a cancellation of a request already answered', async () => {
    const { connection, peer, problems } = connect();
    connection.onRequest('echo', (p) => p);
    await peer.call(7, 'echo', {});
    peer.deliver({ jsonrpc: '2.0', method: CANCELLED_NOTIFICATION, params: { requestId: 7 } });
    assert.deepEqual((await peer.call(8, 'echo', { next: 1 })).result, { next: 1 });
    assert.equal(peer.sent.length, 2);
    assert.deepEqual(problems, []);
  });

  it('still delivers notifications/cancelled to a handler registered for it', async () => {
    const { connection, peer } = connect();
    const seen: unknown[] = [];
    connection.onNotification(CANCELLED_NOTIFICATION, (params) => seen.push(params));
    peer.deliver({ jsonrpc: '2.0', method: CANCELLED_NOTIFICATION, params: { requestId: 3, reason: 'x' } });
    assert.deepEqual(seen, [{ requestId: 3, reason: 'x' }]);
  });

  it("names the request's method in the RequestCancelledError its handler's signal is aborted with", async () => {
    const { connection, peer } = connect();
    const aborted = deferred<unknown>();
    connection.onRequest('tools/call', (_params, context) => {
      context.signal.addEventListener('abort', () => aborted.resolve(context.signal.reason), { once: true });
      return new Promise(() => {});
    });
    peer.deliver({ jsonrpc: '2.0', id: 42, method: 'tools/call' });
    peer.deliver({ jsonrpc: '2.0', method: CANCELLED_NOTIFICATION, params: { requestId: 42 } });
    const reason = await aborted.promise;
    assert.ok(reason instanceof RequestCancelledError);
    assert.equal(reason.method, 'tools/call');
  });
});

describe('connection cancel: passed on through an AbortHook (no AbortSignal)', () => {
  it("cancels a request sent on an incoming request's behalf when the peer cancels that one", async () => {
    const front = connect();
    const back = connect();
    let sent: Promise<unknown> | undefined;
    front.connection.onRequest('forward', (_params, context) => {
      assert.ok(context.abortHook, 'an incoming request has a hook');
      sent = back.connection.request('slow', {}, { abortHook: context.abortHook });
      return sent;
    });
    front.peer.deliver({ jsonrpc: '2.0', id: 1, method: 'forward' });
    const id = back.peer.messages()[0]?.id;
    front.peer.deliver({
      jsonrpc: '2.0',
      method: CANCELLED_NOTIFICATION,
      params: { requestId: 1, reason: 'the user gave up' },
    });
    await assert.rejects(sent!, (error: unknown) => {
      assert.ok(error instanceof RequestCancelledError);
      assert.match(error.message, /the user gave up/);
      return true;
    });
    const cancels = back.peer.notifications(CANCELLED_NOTIFICATION);
    assert.equal(cancels.length, 1);
    const params = cancels[0]?.params as { requestId: unknown; reason: string };
    assert.equal(params.requestId, id);
    assert.match(params.reason, /the user gave up/);
  });

  it('rejects at once, sending nothing, when the hook is aborted already; forgets its listener once answered', async () => {
    const front = connect();
    const back = connect();
    let hook: AbortHook | undefined;
    const answered = deferred();
    front.connection.onRequest('forward', async (_params, context) => {
      hook = context.abortHook;
      const done = back.connection.request('quick', {}, { abortHook: hook });
      back.peer.deliver({ jsonrpc: '2.0', id: back.peer.messages()[0]?.id, result: 'ok' });
      assert.equal(await done, 'ok');
      answered.resolve();
      return new Promise(() => {});
    });
    front.peer.deliver({ jsonrpc: '2.0', id: 1, method: 'forward' });
    await answered.promise;
    front.peer.deliver({ jsonrpc: '2.0', method: CANCELLED_NOTIFICATION, params: { requestId: 1 } });
    await drain();
    assert.deepEqual(
      back.peer.notifications(CANCELLED_NOTIFICATION),
      [],
      'an answered request is not cancelled',
    );
    assert.equal(hook?.aborted, true);
    await assert.rejects(back.connection.request('late', {}, { abortHook: hook }), RequestCancelledError);
    assert.equal(back.peer.messages().length, 1, 'nothing more was sent');
  });
});

describe('connection cancel: end to end between two connections', () => {
  it('aborting at the client aborts the handler at the server, and nothing comes back', async () => {
    const [clientSide, serverSide] = createInMemoryPair();
    const problems: ConnectionProblem[] = [];
    const client = new Connection(clientSide, { onProblem: (p) => problems.push(p) });
    const server = new Connection(serverSide);
    const started = deferred();
    const abortedAtServer = deferred<void>();
    server.onRequest('slow', (_params, context) => {
      started.resolve();
      return new Promise((resolve) => {
        context.signal.addEventListener(
          'abort',
          () => {
            abortedAtServer.resolve();
            resolve('finished anyway');
          },
          { once: true },
        );
      });
    });
    server.onRequest('ping', () => ({}));
    client.start();
    server.start();
    const controller = new AbortController();
    const request = client.request('slow', {}, { signal: controller.signal });
    await started.promise;
    controller.abort(new Error('stop'));
    await assert.rejects(request, RequestCancelledError);
    await abortedAtServer.promise;
    await server.whenIdle();
    assert.deepEqual(await client.request('ping'), {});
    const idOf = (method: string) =>
      (clientSide.sent as Array<{ id?: unknown; method?: string }>).find((m) => m.method === method)?.id;
    assert.deepEqual(
      serverSide.sent.map((m) => (m as { id?: unknown }).id),
      [idOf('ping')],
      'the server answered the cancelled request',
    );
    assert.notEqual(idOf('slow'), idOf('ping'));
    assert.deepEqual(problems, []);
    await client.close();
  });
});

describe('connection cancel: the strategy', () => {
  it('abortCancellation aborts the signal the request was sent with, and sends no notification', async () => {
    const { connection, peer } = connect({ cancellation: abortCancellation });
    const controller = new AbortController();
    const request = connection.request(
      'slow',
      {},
      { signal: controller.signal, transport: { standalone: true } },
    );
    const sent = peer.sendOptions[0];
    assert.equal(sent?.standalone, true, 'the transport options reach the transport');
    assert.equal(sent?.signal?.aborted, false);
    controller.abort(new Error('stop'));
    await assert.rejects(request, RequestCancelledError);
    assert.equal(sent?.signal?.aborted, true, 'cancelling aborts the signal of the request’s own exchange');
    assert.deepEqual(peer.notifications(CANCELLED_NOTIFICATION), []);
  });

  it('a request may choose its own strategy over the connection’s', async () => {
    const { connection, peer } = connect();
    const controller = new AbortController();
    const aborted = connection.request(
      'a',
      {},
      { signal: controller.signal, cancellation: abortCancellation },
    );
    const notified = connection.request('b', {}, { signal: controller.signal });
    controller.abort();
    await assert.rejects(aborted, RequestCancelledError);
    await assert.rejects(notified, RequestCancelledError);
    const ids = peer
      .notifications(CANCELLED_NOTIFICATION)
      .map((n) => (n.params as { requestId: unknown }).requestId);
    assert.deepEqual(
      ids,
      [peer.messages()[1]?.id],
      'only the request without a strategy of its own is notified',
    );
    assert.equal(peer.sendOptions[0]?.signal?.aborted, true);
  });
});
