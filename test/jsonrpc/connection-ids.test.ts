// Ids: echoed as the exact JSON value that arrived ("1" is not 1, "" is not 0), unique among our requests
// in flight, matched by id alone and in any order; a response to an unknown id is reported, never fatal.
// Incoming requests run concurrently, and both ends of a connection send and handle requests.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Connection } from '../../src/jsonrpc/connection.js';
import { ErrorCode } from '../../src/jsonrpc/error-codes.js';
import { createInMemoryPair } from '../../src/transport/memory.js';
import { connect, deferred, drain, settled } from '../support/jsonrpc-peer.js';

describe('connection ids: echoed exactly', () => {
  const ids: Array<string | number> = ['1', 1, '', 0, -1, 1.5, 2 ** 53 - 1, 'ünï 😀', ' 1 ', '01', 1e21];
  it('answers each id with the same JSON value, type included', async () => {
    const { connection, peer } = connect();
    connection.onRequest('whoami', (_params, context) => ({ id: context.id, type: typeof context.id }));
    for (const id of ids) {
      const text = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"whoami"}`;
      const from = peer.sent.length;
      peer.deliverJson(text);
      const response = await peer.responseTo(id, from);
      assert.deepEqual(response, { jsonrpc: '2.0', id, result: { id, type: typeof id } });
      // On the wire, too: the id's JSON text is unchanged.
      assert.ok(JSON.stringify(peer.sent.at(-1)).includes(`"id":${JSON.stringify(id)}`));
    }
  });

  it('echoes the exact id in error responses too', async () => {
    const { peer } = connect();
    for (const id of ['0', 0, '']) {
      const response = await peer.call(id, 'no/such/method');
      assert.equal(response.error?.code, ErrorCode.MethodNotFound);
      assert.equal(typeof response.id, typeof id);
      assert.equal(response.id, id);
    }
  });

  it('keeps "1" and 1 (and "" and 0) apart while both are in flight', async () => {
    const { connection, peer } = connect();
    const gates = new Map<unknown, ReturnType<typeof deferred<string>>>();
    connection.onRequest('wait', (_params, context) => {
      const gate = deferred<string>();
      gates.set(context.id, gate);
      return gate.promise;
    });
    const answers = [
      peer.call('1', 'wait'),
      peer.call(1, 'wait'),
      peer.call('', 'wait'),
      peer.call(0, 'wait'),
    ];
    assert.equal(connection.requestsInFlight, 4, 'a string id was taken for a duplicate of a number id');
    for (const [id, gate] of gates) gate.resolve(`answer to ${JSON.stringify(id)}`);
    const responses = await Promise.all(answers);
    assert.deepEqual(
      responses.map((r) => [r.id, r.result]),
      [
        ['1', 'answer to "1"'],
        [1, 'answer to 1'],
        ['', 'answer to ""'],
        [0, 'answer to 0'],
      ],
    );
    assert.equal(peer.sent.length, 4);
  });

  it('refuses a second request with the id of one still in flight, and still answers the first', async () => {
    const { connection, peer } = connect();
    const gate = deferred<string>();
    let calls = 0;
    connection.onRequest('wait', () => {
      calls++;
      return gate.promise;
    });
    const first = peer.call('dup', 'wait');
    peer.deliver({ jsonrpc: '2.0', id: 'dup', method: 'wait' });
    const refusal = await peer.responseTo('dup');
    assert.equal(refusal.error?.code, ErrorCode.InvalidRequest);
    assert.match(refusal.error?.message ?? '', /in flight|in use/);
    assert.equal(calls, 1);
    gate.resolve('done');
    await connection.whenIdle();
    assert.deepEqual(
      peer.responsesTo('dup').map((r) => r.result ?? r.error?.code),
      [ErrorCode.InvalidRequest, 'done'],
    );
    void first;
    // Once answered, the id is free again.
    assert.equal(connection.requestsInFlight, 0);
    const again = peer.call('dup', 'wait');
    assert.equal(calls, 2);
    assert.equal(connection.requestsInFlight, 1);
    assert.equal((await again).result, 'done');
  });
});

describe('connection ids: outgoing requests', () => {
  it('gives every request in flight its own id', async () => {
    const { connection, peer } = connect();
    const requests = Array.from({ length: 200 }, (_, i) => connection.request('m', { i }));
    const ids = peer.messages().map((m) => m.id);
    assert.equal(ids.length, 200);
    assert.equal(
      new Set(ids.map((id) => JSON.stringify(id))).size,
      200,
      'two requests in flight share an id',
    );
    // Answer half of them; the new ones still collide with none of those left.
    for (const id of ids.slice(0, 100)) peer.deliver({ jsonrpc: '2.0', id, result: null });
    const more = Array.from({ length: 100 }, () => connection.request('m'));
    const inFlight = [
      ...ids.slice(100),
      ...peer
        .messages()
        .slice(200)
        .map((m) => m.id),
    ];
    assert.equal(new Set(inFlight.map((id) => JSON.stringify(id))).size, 200);
    for (const id of inFlight) peer.deliver({ jsonrpc: '2.0', id, result: null });
    await Promise.all([...requests, ...more]);
  });

  it('matches responses by id alone, in any order', async () => {
    const { connection, peer } = connect();
    const names = ['a', 'b', 'c', 'd', 'e'];
    const results = names.map((name) => connection.request<string>('name', { name }));
    const sent = peer.messages();
    // Answer in a scrambled order, each with a value that says which request it is for.
    for (const index of [3, 0, 4, 2, 1]) {
      const request = sent[index]!;
      peer.deliver({
        jsonrpc: '2.0',
        id: request.id,
        result: `for ${(request.params as { name: string }).name}`,
      });
    }
    assert.deepEqual(
      await Promise.all(results),
      names.map((n) => `for ${n}`),
    );
  });

  it('does not take a string id for the number id of a request', async () => {
    const { connection, peer, problems } = connect();
    const pending = settled(connection.request('m'));
    const [sent] = peer.messages();
    assert.equal(typeof sent?.id, 'number', 'this test assumes number ids');
    peer.deliver({ jsonrpc: '2.0', id: String(sent?.id), result: 'wrong' });
    await Promise.resolve();
    assert.equal(pending.state(), 'pending');
    assert.equal(problems[0]?.kind, 'unknown-response');
    peer.deliver({ jsonrpc: '2.0', id: sent?.id, result: 'right' });
    await drain();
    assert.equal(pending.value(), 'right');
  });

  it('ignores a response to an unknown id, reports it, and goes on', async () => {
    const { connection, peer, problems } = connect();
    connection.onRequest('echo', (p) => p);
    const pending = connection.request<string>('m');
    const [sent] = peer.messages();
    assert.doesNotThrow(() => {
      peer.deliver({ jsonrpc: '2.0', id: 98765, result: 'stray' });
      peer.deliver({ jsonrpc: '2.0', id: 'nobody', error: { code: -1, message: 'stray error' } });
    });
    assert.deepEqual(
      problems.map((p) => p.kind),
      ['unknown-response', 'unknown-response'],
    );
    assert.match(problems[0]?.message ?? '', /98765/);
    assert.equal(connection.closed, undefined);
    assert.equal(peer.sent.length, 1, 'a stray response was answered');
    peer.deliver({ jsonrpc: '2.0', id: sent?.id, result: 'mine' });
    assert.equal(await pending, 'mine');
    assert.deepEqual((await peer.call('next', 'echo', { still: 'working' })).result, { still: 'working' });
  });

  it('reports an error response with id null without failing the requests in flight', async () => {
    const { connection, peer, problems } = connect();
    const pending = settled(connection.request('m'));
    peer.deliver({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    await drain();
    assert.equal(pending.state(), 'pending');
    assert.equal(problems[0]?.kind, 'peer-error');
    assert.match(problems[0]?.message ?? '', /Parse error/);
    peer.deliver({ jsonrpc: '2.0', id: peer.messages()[0]?.id, result: 1 });
    await drain();
    assert.equal(pending.value(), 1);
  });

  it('settles a request once: a second response to the same id is ignored and reported', async () => {
    const { connection, peer, problems } = connect();
    const result = connection.request('m');
    const id = peer.messages()[0]?.id;
    peer.deliver({ jsonrpc: '2.0', id, result: 'first' });
    peer.deliver({ jsonrpc: '2.0', id, error: { code: 1, message: 'second' } });
    assert.equal(await result, 'first');
    assert.equal(problems[0]?.kind, 'unknown-response');
  });
});

describe('connection ids: concurrency and symmetry', () => {
  it('runs incoming requests concurrently: a later request can finish first and unblock an earlier one', async () => {
    const { connection, peer } = connect();
    const unblock = deferred<void>();
    const order: string[] = [];
    connection.onRequest('first', async () => {
      await unblock.promise;
      order.push('first');
      return 'first';
    });
    connection.onRequest('second', () => {
      unblock.resolve();
      order.push('second');
      return 'second';
    });
    const first = peer.call(1, 'first');
    assert.equal(connection.requestsInFlight, 1);
    const second = peer.call(2, 'second');
    assert.deepEqual([(await first).result, (await second).result], ['first', 'second']);
    assert.deepEqual(order, ['second', 'first']);
    // The responses went out in completion order: 2 before 1.
    assert.deepEqual(
      peer.sent.map((m) => (m as { id: unknown }).id),
      [2, 1],
    );
  });

  it('has many incoming requests in flight at once', async () => {
    const { connection, peer } = connect();
    const gate = deferred<void>();
    connection.onRequest('wait', async (params) => {
      await gate.promise;
      return params;
    });
    const calls = Array.from({ length: 50 }, (_, i) => peer.call(`r${i}`, 'wait', { i }));
    assert.equal(connection.requestsInFlight, 50);
    gate.resolve();
    const responses = await Promise.all(calls);
    assert.deepEqual(
      responses,
      Array.from({ length: 50 }, (_, i) => ({ jsonrpc: '2.0', id: `r${i}`, result: { i } })),
    );
  });

  it('lets both ends send requests and notifications, also from inside a handler', async () => {
    const [aSide, bSide] = createInMemoryPair();
    const a = new Connection(aSide);
    const b = new Connection(bSide);
    const notesAtA: unknown[] = [];
    const notesAtB: unknown[] = [];
    a.onRequest('double', (params) => (params as { n: number }).n * 2);
    a.onNotification('note', (params) => notesAtA.push(params));
    b.onNotification('note', (params) => notesAtB.push(params));
    // b answers "quadruple" by asking a to double twice while its own request is in flight.
    b.onRequest('quadruple', async (params) => {
      const twice = await b.request<number>('double', params);
      b.notify('note', { halfway: twice });
      return b.request<number>('double', { n: twice });
    });
    a.start();
    b.start();
    a.notify('note', { from: 'a' });
    assert.equal(await a.request('quadruple', { n: 5 }), 20);
    assert.equal(await b.request('double', { n: 21 }), 42);
    assert.deepEqual(notesAtB, [{ from: 'a' }]);
    assert.deepEqual(notesAtA, [{ halfway: 10 }]);
    await a.close();
  });
});
