// JSON-RPC batches, as the batchPolicy option decides: accepted, a batch is answered with one array of the
// responses to its requests (none for its notifications, none at all for a batch of notifications only);
// refused, every request in it gets an error carrying the policy's reason, and no handler runs.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ErrorCode } from '../../src/jsonrpc/error-codes.js';
import {
  connect,
  deferred,
  drain,
  type Harness,
  isResponse,
  type ResponseMessage,
} from '../support/jsonrpc-peer.js';

function byId(responses: unknown): Map<unknown, ResponseMessage> {
  assert.ok(
    Array.isArray(responses),
    `a batch must be answered with an array, got ${JSON.stringify(responses)}`,
  );
  const map = new Map<unknown, ResponseMessage>();
  for (const r of responses) {
    assert.ok(isResponse(r), `not a response: ${JSON.stringify(r)}`);
    assert.equal(map.has(r.id), false, `two responses for id ${JSON.stringify(r.id)}`);
    map.set(r.id, r);
  }
  return map;
}

function withHandlers(harness: Harness): Harness & { calls: string[]; notes: unknown[] } {
  const calls: string[] = [];
  const notes: unknown[] = [];
  harness.connection.onRequest('echo', (params) => {
    calls.push('echo');
    return params;
  });
  harness.connection.onRequest('later', async (params) => {
    calls.push('later');
    await Promise.resolve();
    return params;
  });
  harness.connection.onNotification('note', (params) => notes.push(params));
  return { ...harness, calls, notes };
}

describe('connection batch: accepted (the default)', () => {
  it('answers a batch with one array holding the response of each request, notifications left out', async () => {
    const { peer, notes } = withHandlers(connect());
    peer.deliver([
      { jsonrpc: '2.0', id: 1, method: 'echo', params: { n: 1 } },
      { jsonrpc: '2.0', method: 'note', params: { hello: true } },
      { jsonrpc: '2.0', id: '1', method: 'later', params: { n: '1' } },
      { jsonrpc: '2.0', id: 3, method: 'missing' },
    ]);
    const batch = await peer.waitFor(Array.isArray, 'a batch response');
    const responses = byId(batch);
    assert.equal(responses.size, 3);
    assert.deepEqual(responses.get(1), { jsonrpc: '2.0', id: 1, result: { n: 1 } });
    assert.deepEqual(responses.get('1'), { jsonrpc: '2.0', id: '1', result: { n: '1' } });
    assert.equal(responses.get(3)?.error?.code, ErrorCode.MethodNotFound);
    assert.deepEqual(notes, [{ hello: true }]);
    assert.equal(peer.sent.length, 1, 'the batch was answered in pieces');
  });

  it('waits for the slowest handler of the batch before answering it', async () => {
    const { connection, peer } = connect();
    const gate = deferred<string>();
    connection.onRequest('fast', () => 'fast');
    connection.onRequest('slow', () => gate.promise);
    peer.deliver([
      { jsonrpc: '2.0', id: 'f', method: 'fast' },
      { jsonrpc: '2.0', id: 's', method: 'slow' },
    ]);
    await drain();
    assert.deepEqual(peer.sent, [], 'part of the batch was answered before the rest');
    gate.resolve('slow');
    const responses = byId(await peer.waitFor(Array.isArray, 'a batch response'));
    assert.deepEqual([responses.get('f')?.result, responses.get('s')?.result], ['fast', 'slow']);
  });

  it('sends nothing at all for a batch of notifications only', async () => {
    const { peer, notes } = withHandlers(connect());
    peer.deliver([
      { jsonrpc: '2.0', method: 'note', params: { a: 1 } },
      { jsonrpc: '2.0', method: 'note', params: { b: 2 } },
      { jsonrpc: '2.0', method: 'unknown/notification' },
    ]);
    assert.deepEqual((await peer.call('next', 'echo', {})).id, 'next');
    assert.equal(peer.sent.length, 1);
    assert.deepEqual(notes, [{ a: 1 }, { b: 2 }]);
  });

  it('answers an empty batch with a single -32600 error, id null, not an array', async () => {
    const { peer } = connect();
    peer.deliver([]);
    const response = await peer.responseTo(null);
    assert.equal(response.error?.code, ErrorCode.InvalidRequest);
    assert.equal(peer.sent.length, 1);
    assert.equal(Array.isArray(peer.sent[0]), false);
  });

  it('answers every invalid member of a batch with its own -32600 error, in the one array', async () => {
    const { peer, calls } = withHandlers(connect());
    peer.deliver([1, 2, 3]);
    const invalid = await peer.waitFor(Array.isArray, 'a batch response');
    assert.ok(Array.isArray(invalid));
    assert.equal(invalid.length, 3);
    for (const r of invalid as ResponseMessage[]) {
      assert.equal(r.id, null);
      assert.equal(r.error?.code, ErrorCode.InvalidRequest);
    }
    const from = peer.sent.length;
    peer.deliver([
      { jsonrpc: '2.0', id: 1, method: 'echo', params: { ok: 1 } },
      { foo: 'boo' },
      { jsonrpc: '2.0', id: 'v', method: 'echo', params: 'not structured' },
      [{ jsonrpc: '2.0', id: 9, method: 'echo' }],
    ]);
    const mixed = (await peer.waitFor(Array.isArray, 'a second batch response', from)) as ResponseMessage[];
    assert.equal(mixed.length, 4);
    assert.deepEqual(
      mixed.find((r) => r.id === 1),
      { jsonrpc: '2.0', id: 1, result: { ok: 1 } },
    );
    assert.equal(mixed.find((r) => r.id === 'v')?.error?.code, ErrorCode.InvalidRequest);
    assert.equal(mixed.filter((r) => r.id === null && r.error?.code === ErrorCode.InvalidRequest).length, 2);
    assert.deepEqual(calls, ['echo'], 'a nested batch was run');
  });

  it('takes responses to our own requests out of a batch', async () => {
    const { connection, peer } = connect();
    const a = connection.request('a');
    const b = connection.request('b');
    const [sentA, sentB] = peer.messages();
    peer.deliver([
      { jsonrpc: '2.0', id: sentB?.id, result: 'b' },
      { jsonrpc: '2.0', id: sentA?.id, error: { code: -1, message: 'a failed' } },
    ]);
    assert.equal(await b, 'b');
    await assert.rejects(a, /a failed/);
    assert.deepEqual(peer.sent.length, 2, 'a batch of responses was answered');
  });

  it('leaves the response of a request cancelled within the batch out of the array', async () => {
    const { connection, peer } = connect();
    connection.onRequest('quick', () => 'quick');
    connection.onRequest('slow', (_params, context) => {
      return new Promise((resolve) => context.signal.addEventListener('abort', () => resolve('aborted')));
    });
    peer.deliver([
      { jsonrpc: '2.0', id: 'q', method: 'quick' },
      { jsonrpc: '2.0', id: 's', method: 'slow' },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 's' } },
    ]);
    const responses = byId(await peer.waitFor(Array.isArray, 'a batch response'));
    assert.deepEqual([...responses.keys()], ['q']);
  });
});

describe('connection batch: batchPolicy', () => {
  it('refuses a batch when the policy gives a reason: each request gets -32600 with that reason', async () => {
    const reason = 'JSON-RPC batches are not supported in protocol revision 2025-06-18';
    const { peer, calls, notes, problems } = withHandlers(connect({ batchPolicy: () => reason }));
    peer.deliver([
      { jsonrpc: '2.0', id: 1, method: 'echo', params: {} },
      { jsonrpc: '2.0', method: 'note', params: {} },
      { jsonrpc: '2.0', id: 'two', method: 'later', params: {} },
    ]);
    await drain();
    const answered = peer.messages();
    assert.equal(answered.length, 2);
    for (const id of [1, 'two']) {
      const [response, ...more] = peer.responsesTo(id);
      assert.equal(more.length, 0);
      assert.deepEqual(response?.error, { code: ErrorCode.InvalidRequest, message: reason });
    }
    assert.deepEqual(calls, [], 'a handler ran for a refused batch');
    assert.deepEqual(notes, [], 'a notification of a refused batch was handled');
    assert.ok(problems.some((p) => p.message.includes(reason)));
  });

  it('answers a refused batch that holds no request with one -32600 error, id null', async () => {
    const reason = 'no batches here';
    const { peer, notes } = withHandlers(connect({ batchPolicy: () => reason }));
    peer.deliver([{ jsonrpc: '2.0', method: 'note', params: {} }]);
    await drain();
    assert.deepEqual(peer.messages(), [
      { jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest, message: reason } },
    ]);
    assert.deepEqual(notes, []);
  });

  it('asks the policy for every batch, so it can change during the session', async () => {
    let refusal: string | undefined;
    const { peer } = withHandlers(connect({ batchPolicy: () => refusal }));
    peer.deliver([{ jsonrpc: '2.0', id: 1, method: 'echo', params: { first: true } }]);
    const accepted = byId(await peer.waitFor(Array.isArray, 'a batch response'));
    assert.deepEqual(accepted.get(1)?.result, { first: true });
    refusal = 'batches are over';
    const from = peer.sent.length;
    peer.deliver([{ jsonrpc: '2.0', id: 2, method: 'echo', params: {} }]);
    await drain();
    assert.deepEqual(
      peer.sent.slice(from).flatMap((p) => (Array.isArray(p) ? p : [p])),
      [{ jsonrpc: '2.0', id: 2, error: { code: ErrorCode.InvalidRequest, message: 'batches are over' } }],
    );
  });

  it('does not consult the policy for single messages', async () => {
    let asked = 0;
    const { peer } = withHandlers(
      connect({
        batchPolicy: () => {
          asked++;
          return 'no batches';
        },
      }),
    );
    assert.deepEqual((await peer.call(1, 'echo', { single: true })).result, { single: true });
    assert.equal(asked, 0);
  });
});
