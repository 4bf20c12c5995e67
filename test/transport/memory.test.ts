// createInMemoryPair: two linked transports. Delivery both ways, buffering until start(), JSON copies as
// on a real wire, and close() that reaches both sides.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CloseReason } from '../../src/jsonrpc/errors.js';
import type { JsonRpcMessage } from '../../src/jsonrpc/messages.js';
import type { TransportHandlers } from '../../src/jsonrpc/transport.js';
import { createInMemoryPair } from '../../src/transport/memory.js';

interface Side {
  handlers: TransportHandlers;
  messages: unknown[];
  closed: CloseReason[];
  /** Resolves once `count` messages have arrived. */
  received(count: number): Promise<unknown[]>;
}

function side(): Side {
  const messages: unknown[] = [];
  const closed: CloseReason[] = [];
  let waiters: Array<() => void> = [];
  const wake = () => {
    const pending = waiters;
    waiters = [];
    for (const check of pending) check();
  };
  return {
    messages,
    closed,
    handlers: {
      message: (payload) => {
        messages.push(payload);
        wake();
      },
      frameError: () => assert.fail('an in-memory transport has no frames to get wrong'),
      closed: (reason) => {
        closed.push(reason);
        wake();
      },
    },
    received: (count) =>
      new Promise((resolve) => {
        const check = () => {
          if (messages.length >= count) resolve(messages);
          else waiters.push(check);
        };
        check();
      }),
  };
}

const request = (id: number): JsonRpcMessage => ({ jsonrpc: '2.0', id, method: 'echo', params: { id } });

describe('createInMemoryPair', () => {
  it('delivers messages both ways, in order', async () => {
    const [a, b] = createInMemoryPair();
    const sa = side();
    const sb = side();
    a.start(sa.handlers);
    b.start(sb.handlers);
    a.send(request(1));
    a.send(request(2));
    b.send({ jsonrpc: '2.0', id: 1, result: 'one' });
    assert.deepEqual(await sb.received(2), [request(1), request(2)]);
    assert.deepEqual(await sa.received(1), [{ jsonrpc: '2.0', id: 1, result: 'one' }]);
  });

  it('delivers asynchronously, not from inside send()', () => {
    const [a, b] = createInMemoryPair();
    const sb = side();
    a.start(side().handlers);
    b.start(sb.handlers);
    a.send(request(1));
    assert.deepEqual(sb.messages, []);
  });

  it('keeps what arrives before start() and delivers it, in order, when the side starts', async () => {
    const [a, b] = createInMemoryPair();
    a.start(side().handlers);
    a.send(request(1));
    a.send(request(2));
    await a.flush();
    const sb = side();
    b.start(sb.handlers);
    assert.deepEqual(sb.messages, [request(1), request(2)]);
    a.send(request(3));
    assert.deepEqual(await sb.received(3), [request(1), request(2), request(3)]);
  });

  it('sends a JSON copy: undefined members are dropped and later changes to the object do not travel', async () => {
    const [a, b] = createInMemoryPair();
    const sb = side();
    a.start(side().handlers);
    b.start(sb.handlers);
    const params = { kept: 1, dropped: undefined, list: [1, undefined, 3], when: new Date(0) };
    const message = { jsonrpc: '2.0', id: 1, method: 'm', params } as JsonRpcMessage;
    a.send(message);
    params.kept = 2;
    params.list.push(4);
    const [received] = await sb.received(1);
    assert.deepEqual(received, {
      jsonrpc: '2.0',
      id: 1,
      method: 'm',
      params: { kept: 1, list: [1, null, 3], when: '1970-01-01T00:00:00.000Z' },
    });
    assert.equal(Object.hasOwn((received as { params: object }).params, 'dropped'), false);
    assert.notEqual(received, message);
  });

  it('records what each side sent, as it went on the wire', async () => {
    const [a, b] = createInMemoryPair();
    a.start(side().handlers);
    b.start(side().handlers);
    a.send({ jsonrpc: '2.0', method: 'note', params: { x: undefined, y: 1 } });
    assert.deepEqual(a.sent, [{ jsonrpc: '2.0', method: 'note', params: { y: 1 } }]);
    assert.deepEqual(b.sent, []);
  });

  it('delivers what was sent before close(), then closes both sides once', async () => {
    const [a, b] = createInMemoryPair();
    const sa = side();
    const sb = side();
    a.start(sa.handlers);
    b.start(sb.handlers);
    a.send(request(1));
    await a.close();
    assert.deepEqual(sb.messages, [request(1)]);
    assert.deepEqual(sa.closed, [{ message: 'closed' }]);
    assert.deepEqual(sb.closed, [{ message: 'the peer closed the connection' }]);
    await a.close();
    await b.close();
    assert.equal(sa.closed.length, 1);
    assert.equal(sb.closed.length, 1);
  });

  it('neither sends nor delivers after close', async () => {
    const [a, b] = createInMemoryPair();
    const sa = side();
    const sb = side();
    a.start(sa.handlers);
    b.start(sb.handlers);
    await b.close();
    a.send(request(1));
    b.send(request(2));
    await a.flush();
    await b.flush();
    assert.deepEqual(sa.messages, []);
    assert.deepEqual(sb.messages, []);
    assert.deepEqual(a.sent, []);
  });
});
