// When the peer goes away, every pending request rejects at once with a ConnectionClosedError that says
// why (exit code, signal, the last lines of stderr). When only the peer's input ends, the handlers in
// flight finish and their responses are sent before the connection closes its side.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Connection } from '../../src/jsonrpc/connection.js';
import { type CloseReason, ConnectionClosedError } from '../../src/jsonrpc/errors.js';
import { createInMemoryPair } from '../../src/transport/memory.js';
import { connect, deferred, drain, settled } from '../support/jsonrpc-peer.js';

const crashed: CloseReason = {
  message: 'server exited with code 3',
  exitCode: 3,
  signal: null,
  stderrTail: 'loading config\nError: cannot open database /var/db/app.sqlite',
};

function closedBecause(reason: CloseReason, method?: string) {
  return (error: unknown) => {
    assert.ok(error instanceof ConnectionClosedError, `not a ConnectionClosedError: ${String(error)}`);
    assert.equal(error.name, 'ConnectionClosedError');
    assert.match(error.message, /connection closed/);
    assert.ok(error.message.includes(reason.message), `the reason is missing from: ${error.message}`);
    if (reason.stderrTail) {
      const lastLine = reason.stderrTail.split('\n').at(-1)!;
      assert.ok(error.message.includes(lastLine), `the stderr tail is missing from: ${error.message}`);
    }
    assert.deepEqual(error.reason, reason);
    if (method) assert.equal(error.method, method);
    return true;
  };
}

describe('connection close: the peer goes away', () => {
  it('rejects every pending request at once, each saying why', async () => {
    const { connection, peer } = connect();
    const methods = ['tools/call', 'resources/read', 'ping'];
    const requests = methods.map((m) => settled(connection.request(m)));
    peer.end(crashed);
    // At once: before any timer could fire, after the promise jobs only.
    await drain();
    for (const [i, request] of requests.entries()) {
      assert.equal(request.state(), 'rejected');
      assert.ok(closedBecause(crashed, methods[i])(request.error()));
    }
  });

  it('names a signal when the peer was killed by one', async () => {
    const { connection, peer } = connect();
    const request = connection.request('slow');
    const killed: CloseReason = {
      message: 'server was killed by SIGKILL',
      exitCode: null,
      signal: 'SIGKILL',
    };
    peer.end(killed);
    await assert.rejects(request, closedBecause(killed));
    await assert.rejects(request, /SIGKILL/);
  });

  it('rejects requests made after the close at once, with the same reason', async () => {
    const { connection, peer } = connect();
    peer.end(crashed);
    await assert.rejects(connection.request('late'), closedBecause(crashed, 'late'));
    assert.deepEqual(peer.sent, []);
    assert.deepEqual(connection.closed, crashed);
  });

  it('tells onClose listeners, once, including one added after the close', () => {
    const { connection, peer } = connect();
    const before: CloseReason[] = [];
    connection.onClose((reason) => before.push(reason));
    peer.end(crashed);
    peer.end({ message: 'a second close' });
    const after: CloseReason[] = [];
    connection.onClose((reason) => after.push(reason));
    assert.deepEqual(before, [crashed]);
    assert.deepEqual(after, [crashed]);
  });

  it('aborts the signals of the handlers in flight and drops their responses', async () => {
    const { connection, peer } = connect();
    const aborted = deferred<unknown>();
    const gate = deferred<void>();
    connection.onRequest('slow', async (_params, context) => {
      context.signal.addEventListener('abort', () => aborted.resolve(context.signal.reason), { once: true });
      await gate.promise;
      return 'too late';
    });
    peer.deliver({ jsonrpc: '2.0', id: 1, method: 'slow' });
    peer.end(crashed);
    const reason = await aborted.promise;
    assert.ok(reason instanceof Error);
    assert.match(reason.message, /exited with code 3/);
    gate.resolve();
    await connection.whenIdle();
    assert.deepEqual(peer.sent, []);
  });

  it('sends no notification once closed', async () => {
    const { connection, peer } = connect();
    peer.end(crashed);
    assert.doesNotThrow(() => connection.notify('notifications/message', { level: 'info' }));
    assert.deepEqual(peer.sent, []);
  });

  it('rejects the requests of the other side when a connection over the in-memory pair closes', async () => {
    const [aSide, bSide] = createInMemoryPair();
    const a = new Connection(aSide);
    const b = new Connection(bSide);
    const started = deferred();
    const startedAtA = deferred();
    b.onRequest('hang', () => {
      started.resolve();
      return new Promise(() => {});
    });
    a.onRequest('hang too', () => {
      startedAtA.resolve();
      return new Promise(() => {});
    });
    a.start();
    b.start();
    const hanging = a.request('hang');
    await started.promise;
    const fromB = b.request('hang too');
    await startedAtA.promise;
    await aSide.close();
    await assert.rejects(hanging, closedBecause({ message: 'closed' }, 'hang'));
    await assert.rejects(fromB, closedBecause({ message: 'the peer closed the connection' }, 'hang too'));
  });
});

describe('connection close: the input ends', () => {
  it('finishes the handlers in flight, sends their responses, then closes its side', async () => {
    const { connection, peer } = connect();
    const gate = deferred<void>();
    connection.onRequest('work', async (params) => {
      await gate.promise;
      return params;
    });
    peer.deliver({ jsonrpc: '2.0', id: 1, method: 'work', params: { n: 1 } });
    peer.deliver({ jsonrpc: '2.0', id: 2, method: 'work', params: { n: 2 } });
    peer.endInput();
    await drain();
    assert.equal(peer.closeCalls, 0, 'closed with handlers in flight');
    assert.equal(connection.closed, undefined);
    gate.resolve();
    const closed = new Promise<CloseReason>((resolve) => connection.onClose(resolve));
    await closed;
    assert.deepEqual(peer.sent, [
      { jsonrpc: '2.0', id: 1, result: { n: 1 } },
      { jsonrpc: '2.0', id: 2, result: { n: 2 } },
    ]);
    assert.equal(peer.closeCalls, 1);
  });

  it('closes at once when nothing is in flight', async () => {
    const { connection, peer } = connect();
    const closed = new Promise<CloseReason>((resolve) => connection.onClose(resolve));
    peer.endInput();
    await closed;
    assert.equal(peer.closeCalls, 1);
  });

  it('rejects our pending requests with a connection-closed error, since no answer can come', async () => {
    const { connection, peer } = connect();
    const request = connection.request('tools/list');
    peer.endInput();
    await assert.rejects(request, (error: unknown) => {
      assert.ok(error instanceof ConnectionClosedError);
      assert.equal(error.method, 'tools/list');
      assert.match(error.message, /closed/);
      return true;
    });
    await assert.rejects(connection.request('after'), ConnectionClosedError);
  });

  it('close() waits for the handlers in flight and sends their responses first', async () => {
    const { connection, peer } = connect();
    const gate = deferred<void>();
    connection.onRequest('work', async () => {
      await gate.promise;
      return 'finished';
    });
    peer.deliver({ jsonrpc: '2.0', id: 'w', method: 'work' });
    const closing = settled(connection.close());
    await drain();
    assert.equal(closing.state(), 'pending');
    assert.equal(peer.closeCalls, 0);
    gate.resolve();
    await connection.whenIdle();
    await drain();
    assert.equal(closing.state(), 'fulfilled');
    assert.deepEqual(peer.sent, [{ jsonrpc: '2.0', id: 'w', result: 'finished' }]);
    assert.equal(peer.closeCalls, 1);
  });
});
