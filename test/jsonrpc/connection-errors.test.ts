// The error responses of the connection: -32700 (id null), -32600 (the id when it can be read, else null),
// -32601, -32602 and -32603, each with a useful message and no stack trace; a notification is never
// answered, not even when it fails. The connection goes on after every one of them.

import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { Connection, type ConnectionProblem } from '../../src/jsonrpc/connection.js';
import { ErrorCode } from '../../src/jsonrpc/error-codes.js';
import { JsonRpcError } from '../../src/jsonrpc/errors.js';
import { StreamTransport } from '../../src/transport/stream.js';
import { FakeClock } from '../support/fake-clock.js';
import { connect, drain, type FakePeer, isResponse, type ResponseMessage } from '../support/jsonrpc-peer.js';

/** The error of the one response the peer got for `id`, failing if it is a success. */
async function errorFor(peer: FakePeer, id: unknown, from = 0) {
  const response = await peer.responseTo(id, from);
  assert.ok(response.error, `expected an error response, got ${JSON.stringify(response)}`);
  return response.error;
}

/** A stack frame as V8 prints it, or a path of this repository. */
const STACK_TRACE = /\n\s+at |connection\.ts|\.test\.ts|node:internal/;

/** Bytes in, bytes out: a connection over in-process streams, to test what real frames produce. */
function overStreams() {
  const input = new PassThrough();
  const output = new PassThrough();
  const lines: ResponseMessage[] = [];
  let buffered = '';
  const waiters: Array<() => void> = [];
  output.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    let nl = buffered.indexOf('\n');
    while (nl !== -1) {
      lines.push(JSON.parse(buffered.slice(0, nl)));
      buffered = buffered.slice(nl + 1);
      nl = buffered.indexOf('\n');
    }
    for (const wake of waiters.splice(0)) wake();
  });
  const problems: ConnectionProblem[] = [];
  const connection = new Connection(new StreamTransport(input, output), {
    onProblem: (p) => problems.push(p),
  });
  connection.onRequest('echo', (params) => params);
  connection.start();
  const until = (count: number) =>
    new Promise<ResponseMessage[]>((resolve) => {
      const check = () => (lines.length >= count ? resolve(lines) : waiters.push(check));
      check();
    });
  return { input, connection, lines, problems, until };
}

describe('connection errors: -32700 parse error', () => {
  it('answers a frame that is not JSON with -32700 and id null, then goes on', async () => {
    const wire = overStreams();
    wire.input.write('{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]\n');
    wire.input.write('{"jsonrpc":"2.0","id":7,"method":"echo","params":{"after":true}}\n');
    const [parseError, echo] = await wire.until(2);
    assert.equal(parseError?.id, null);
    assert.equal(parseError?.error?.code, ErrorCode.ParseError);
    assert.match(parseError?.error?.message ?? '', /parse error/i);
    assert.doesNotMatch(parseError?.error?.message ?? '', STACK_TRACE);
    assert.deepEqual(echo, { jsonrpc: '2.0', id: 7, result: { after: true } });
    assert.deepEqual(
      wire.problems.map((p) => p.kind),
      ['parse-error'],
    );
    assert.equal(wire.connection.closed, undefined);
  });

  it('answers a parse error reported by any transport with -32700 and id null', async () => {
    const { peer } = connect();
    peer.frameError({ kind: 'parse', message: 'Parse error: Unexpected token', excerpt: '{oops' });
    const response = await peer.responseTo(null);
    assert.deepEqual(response, {
      jsonrpc: '2.0',
      id: null,
      error: { code: ErrorCode.ParseError, message: 'Parse error: Unexpected token' },
    });
  });
});

describe('connection errors: -32600 invalid request', () => {
  const cases: Array<{ name: string; text: string; id: string | number | null }> = [
    {
      name: 'a wrong "jsonrpc" version, id readable',
      text: '{"jsonrpc":"1.0","id":7,"method":"echo"}',
      id: 7,
    },
    { name: 'no "jsonrpc" at all, string id', text: '{"id":"seven","method":"echo"}', id: 'seven' },
    { name: 'a method that is not a string', text: '{"jsonrpc":"2.0","id":"m","method":1}', id: 'm' },
    {
      name: 'params that are neither object nor array',
      text: '{"jsonrpc":"2.0","id":0,"method":"echo","params":"bar"}',
      id: 0,
    },
    { name: 'the JSON-RPC example, no id', text: '{"jsonrpc":"2.0","method":1,"params":"bar"}', id: null },
    { name: 'a number', text: '1', id: null },
    { name: 'a string', text: '"hello"', id: null },
    { name: 'null', text: 'null', id: null },
    { name: 'an object id', text: '{"jsonrpc":"1.0","id":{"a":1},"method":"echo"}', id: null },
    { name: 'a boolean id', text: '{"jsonrpc":"2.0","id":true,"method":"echo"}', id: null },
    { name: 'an array id', text: '{"jsonrpc":"2.0","id":[1],"method":"echo"}', id: null },
    { name: 'neither method nor result', text: '{"jsonrpc":"2.0","id":"x"}', id: 'x' },
  ];
  for (const c of cases) {
    it(`answers ${c.name} with -32600 and id ${JSON.stringify(c.id)}`, async () => {
      const { connection, peer, problems } = connect();
      let called = false;
      connection.onRequest('echo', () => {
        called = true;
      });
      peer.deliverJson(c.text);
      const error = await errorFor(peer, c.id);
      assert.equal(error.code, ErrorCode.InvalidRequest);
      assert.match(error.message, /invalid request/i);
      assert.ok(
        error.message.length > 'Invalid Request'.length + 5,
        `not a useful message: ${error.message}`,
      );
      assert.doesNotMatch(error.message, STACK_TRACE);
      assert.equal(called, false, 'the handler ran for an invalid request');
      assert.equal(peer.sent.length, 1);
      assert.equal(problems[0]?.kind, 'invalid-message');
    });
  }

  it('refuses a request whose id is null: -32600 with id null, and the handler never runs', async () => {
    const { connection, peer } = connect();
    let called = false;
    connection.onRequest('echo', () => {
      called = true;
    });
    peer.deliverJson('{"jsonrpc":"2.0","id":null,"method":"echo","params":{}}');
    const error = await errorFor(peer, null);
    assert.equal(error.code, ErrorCode.InvalidRequest);
    assert.match(error.message, /id/);
    assert.equal(called, false);
  });

  it('does not answer a malformed response (nobody asked for it) but reports it', async () => {
    const { connection, peer, problems } = connect();
    connection.onRequest('echo', (p) => p);
    peer.deliverJson('{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"x"}}');
    peer.deliverJson('{"jsonrpc":"2.0","id":2,"error":{"code":"not a number","message":"x"}}');
    assert.deepEqual(await peer.call(3, 'echo', { ok: 1 }), { jsonrpc: '2.0', id: 3, result: { ok: 1 } });
    assert.equal(peer.sent.length, 1, `unexpected answers: ${JSON.stringify(peer.sent)}`);
    assert.deepEqual(
      problems.map((p) => p.kind),
      ['invalid-message', 'invalid-message'],
    );
  });
});

describe('connection errors: -32601 method not found', () => {
  it('answers an unknown method with -32601 naming the method, id echoed', async () => {
    const { connection, peer } = connect();
    connection.onRequest('known', () => 'yes');
    const response = await peer.call('q', 'tools/unknown', { a: 1 });
    assert.equal(response.id, 'q');
    assert.equal(response.error?.code, ErrorCode.MethodNotFound);
    assert.match(response.error?.message ?? '', /tools\/unknown/);
    assert.equal('result' in response, false);
  });

  it('hands unknown methods to onOtherRequest when one is set, and answers -32601 again once it is removed', async () => {
    const { connection, peer } = connect();
    connection.onOtherRequest((params, context) => ({ method: context.method, params }));
    assert.deepEqual((await peer.call(1, 'anything', { x: 1 })).result, {
      method: 'anything',
      params: { x: 1 },
    });
    connection.onOtherRequest(undefined);
    assert.equal((await peer.call(2, 'anything')).error?.code, ErrorCode.MethodNotFound);
  });
});

describe('connection errors: -32602 invalid params and errors thrown on purpose', () => {
  it('answers with exactly the code, message and data of a JsonRpcError thrown by the handler', async () => {
    const { connection, peer, problems } = connect();
    connection.onRequest('add', (params) => {
      const { a, b } = params as { a?: unknown; b?: unknown };
      if (typeof a !== 'number' || typeof b !== 'number') {
        throw new JsonRpcError(ErrorCode.InvalidParams, 'Invalid params: "a" and "b" must be numbers', {
          got: { a, b },
        });
      }
      return a + b;
    });
    assert.deepEqual(await peer.call(1, 'add', { a: 1, b: 2 }), { jsonrpc: '2.0', id: 1, result: 3 });
    assert.deepEqual(await peer.call(2, 'add', { a: 'x' }), {
      jsonrpc: '2.0',
      id: 2,
      error: {
        code: ErrorCode.InvalidParams,
        message: 'Invalid params: "a" and "b" must be numbers',
        data: { got: { a: 'x' } },
      },
    });
    assert.deepEqual(problems, [], 'an intended error is not a problem');
  });

  it('answers with the JsonRpcError of a rejected promise too, any code', async () => {
    const { connection, peer } = connect();
    connection.onRequest('later', async () => {
      await Promise.resolve();
      throw new JsonRpcError(-32002, 'Resource not found', { uri: 'file:///x' });
    });
    assert.deepEqual((await peer.call('r', 'later')).error, {
      code: -32002,
      message: 'Resource not found',
      data: { uri: 'file:///x' },
    });
  });

  it('makes a request to the peer reject with a JsonRpcError carrying the error response exactly', async () => {
    const { connection, peer } = connect();
    const pending = connection.request('tools/call', { name: 'x' });
    const sent = await peer.requestFor('tools/call');
    peer.deliver({ jsonrpc: '2.0', id: sent.id, error: { code: -32602, message: 'bad', data: [1, 'two'] } });
    const error = await pending.then(
      () => assert.fail('resolved'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof JsonRpcError);
    assert.equal(error.code, -32602);
    assert.equal(error.message, 'bad');
    assert.deepEqual(error.data, [1, 'two']);
  });
});

describe('connection errors: -32603 internal error', () => {
  const failures: Array<{ name: string; handler: () => unknown; text: string }> = [
    {
      name: 'an Error thrown',
      handler: () => {
        throw new Error('disk on fire');
      },
      text: 'disk on fire',
    },
    {
      name: 'a rejected promise',
      handler: async () => {
        await Promise.resolve();
        throw new TypeError('cannot read x of undefined');
      },
      text: 'cannot read x of undefined',
    },
    {
      name: 'a string thrown',
      handler: () => {
        throw 'plain string';
      },
      text: 'plain string',
    },
    {
      name: 'an Error with extra fields',
      handler: () => {
        throw Object.assign(new Error('ENOENT: no such file'), { path: '/secret/place', code: 'ENOENT' });
      },
      text: 'ENOENT: no such file',
    },
  ];
  for (const f of failures) {
    it(`answers ${f.name} with -32603, the message, and no stack trace`, async () => {
      const { connection, peer, problems } = connect();
      connection.onRequest('fail', f.handler);
      const response = await peer.call(5, 'fail');
      assert.equal(response.id, 5);
      assert.equal(response.error?.code, ErrorCode.InternalError);
      assert.ok(response.error?.message.includes(f.text), `message lost: ${response.error?.message}`);
      const wire = JSON.stringify(response);
      assert.doesNotMatch(wire, STACK_TRACE);
      assert.doesNotMatch(wire, /secret/);
      assert.equal(response.error?.data, undefined);
      // The full error stays on this side, for the logs.
      assert.equal(problems[0]?.kind, 'handler-error');
      assert.ok(problems[0]?.detail !== undefined);
    });
  }

  it('answers a handler that returns nothing with result null', async () => {
    const { connection, peer } = connect();
    connection.onRequest('void', () => undefined);
    connection.onRequest('asyncVoid', async () => {});
    assert.deepEqual(await peer.call(1, 'void'), { jsonrpc: '2.0', id: 1, result: null });
    assert.deepEqual(await peer.call(2, 'asyncVoid'), { jsonrpc: '2.0', id: 2, result: null });
  });

  it('answers -32603 when the result cannot be serialised (BigInt), without throwing out of the transport', async () => {
    const { connection, peer } = connect();
    connection.onRequest('big', () => 10n);
    assert.doesNotThrow(() => peer.deliver({ jsonrpc: '2.0', id: 1, method: 'big' }));
    const response = await peer.responseTo(1);
    assert.equal(response.error?.code, ErrorCode.InternalError);
  });

  // Found in review: a thenable's then() was called by the connection itself, so one that threw left the
  // request in flight for good (and a batch unanswered), and one that called back twice was answered twice.
  it('answers -32603 for a thenable whose then() throws, and does not stay in flight', async () => {
    const { connection, peer } = connect();
    connection.onRequest('thenThrows', () => ({
      // biome-ignore lint/suspicious/noThenProperty: a thenable is what is tested
      then() {
        throw new Error('then exploded');
      },
    }));
    assert.doesNotThrow(() => peer.deliver({ jsonrpc: '2.0', id: 1, method: 'thenThrows' }));
    const response = await peer.responseTo(1);
    assert.equal(response.error?.code, ErrorCode.InternalError);
    assert.match(response.error?.message ?? '', /then exploded/);
    assert.equal(connection.requestsInFlight, 0);
  });

  it('answers a thenable that calls back more than once with its first outcome, once', async () => {
    const { connection, peer } = connect();
    connection.onRequest('twice', () => ({
      // biome-ignore lint/suspicious/noThenProperty: a thenable is what is tested
      then(resolve: (value: unknown) => void, reject: (error: unknown) => void) {
        resolve(1);
        reject(new Error('too late'));
        resolve(2);
      },
    }));
    assert.deepEqual(await peer.call(1, 'twice'), { jsonrpc: '2.0', id: 1, result: 1 });
    await connection.whenIdle();
    assert.equal(peer.sent.filter((m) => (m as { id?: unknown }).id === 1).length, 1);
  });

  it('answers -32603 for a thrown value that has no string form, and does not stay in flight', async () => {
    const { connection, peer } = connect();
    connection.onRequest('weird', () => {
      throw Object.create(null);
    });
    assert.doesNotThrow(() => peer.deliver({ jsonrpc: '2.0', id: 1, method: 'weird' }));
    assert.equal(connection.requestsInFlight, 0);
    const response = await peer.responseTo(1);
    assert.equal(response.error?.code, ErrorCode.InternalError);
  });
});

describe('connection errors: notifications are never answered', () => {
  it('sends nothing for an unknown notification, a throwing handler, or a notification to a request method', async () => {
    const { connection, peer, problems } = connect();
    let requestHandlerRan = false;
    connection.onRequest('echo', (p) => {
      requestHandlerRan = true;
      return p;
    });
    connection.onNotification('boom', () => {
      throw new Error('handler failed');
    });
    peer.deliver({ jsonrpc: '2.0', method: 'nobody/listens', params: {} });
    peer.deliver({ jsonrpc: '2.0', method: 'boom' });
    peer.deliver({ jsonrpc: '2.0', method: 'echo', params: { x: 1 } });
    await drain();
    assert.deepEqual(peer.sent, []);
    assert.equal(requestHandlerRan, false);
    assert.deepEqual(
      problems.map((p) => p.kind),
      ['notification-error'],
    );
    // Still answering requests.
    assert.deepEqual(await peer.call(1, 'echo', { y: 2 }), { jsonrpc: '2.0', id: 1, result: { y: 2 } });
    assert.equal(peer.sent.length, 1);
  });

  it('hands unknown notifications to onOtherNotification, whose failure is not answered either', async () => {
    const { connection, peer, problems } = connect();
    const seen: unknown[] = [];
    connection.onOtherNotification((method, params) => {
      seen.push([method, params]);
      throw new Error('fallback failed');
    });
    peer.deliver({ jsonrpc: '2.0', method: 'x/y', params: [1] });
    await drain();
    assert.deepEqual(seen, [['x/y', [1]]]);
    assert.deepEqual(peer.sent, []);
    assert.equal(problems[0]?.kind, 'notification-error');
  });

  it('reports the rejection of an async notification handler instead of leaving it unhandled', async () => {
    const { connection, peer, problems } = connect();
    connection.onNotification('later', (async () => {
      await Promise.resolve();
      throw new Error('async handler failed');
    }) as () => void);
    peer.deliver({ jsonrpc: '2.0', method: 'later' });
    await drain();
    assert.deepEqual(peer.sent, []);
    assert.deepEqual(
      problems.map((p) => p.kind),
      ['notification-error'],
    );
  });
});

describe('connection errors: frames the transport could not deliver', () => {
  it('answers an oversized request whose id was read with -32600 naming the limit, and goes on', async () => {
    const { connection, peer, problems } = connect();
    connection.onRequest('echo', (p) => p);
    peer.frameError({
      kind: 'oversize',
      message: 'message of 300 bytes exceeds the maximum message size of 100 bytes',
      size: 300,
      limit: 100,
      id: 'big',
      role: 'request',
    });
    const error = await errorFor(peer, 'big');
    assert.equal(error.code, ErrorCode.InvalidRequest);
    assert.match(error.message, /maximum message size/);
    assert.equal(problems[0]?.kind, 'oversize');
    assert.deepEqual((await peer.call(1, 'echo', {})).result, {});
  });

  it('bug: an oversized message whose id could not be read got no answer; it is answered -32600 with id null', async () => {
    const { peer, problems } = connect();
    peer.frameError({ kind: 'oversize', message: 'too big', size: 9, limit: 1, id: null, role: 'unknown' });
    await drain();
    assert.deepEqual(peer.sent, [{ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'too big' } }]);
    assert.equal(problems[0]?.kind, 'oversize');
  });

  it('rejects the pending request an oversized response belonged to, and answers no response', async () => {
    const { connection, peer, problems } = connect();
    const pending = connection.request('huge');
    const sent = await peer.requestFor('huge');
    peer.frameError({ kind: 'oversize', message: 'too big', size: 9, limit: 1, id: null, role: 'response' });
    peer.frameError({
      kind: 'oversize',
      message: 'too big',
      size: 9,
      limit: 1,
      id: sent.id,
      role: 'response',
    });
    await assert.rejects(pending, (e: unknown) => e instanceof JsonRpcError && /too big/.test(e.message));
    assert.equal(peer.sent.filter((p) => isResponse(p)).length, 0, 'an oversized response is not answered');
    assert.deepEqual(
      problems.map((p) => p.kind),
      ['oversize', 'oversize'],
    );
  });

  it('bug: a framing error went unanswered, so the peer waited forever; it is answered -32700 with id null', async () => {
    const { peer, problems } = connect();
    peer.frameError({
      kind: 'framing',
      message: 'a header block without a valid Content-Length',
      excerpt: 'X: 1',
    });
    await drain();
    assert.deepEqual(peer.sent, [
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Parse error: a header block without a valid Content-Length' },
      },
    ]);
    assert.equal(problems[0]?.kind, 'framing');
  });
});

describe('connection errors: an outgoing request that cannot be sent', () => {
  it('rejects, and leaves no timer behind that would later cancel a request the peer never saw', async (t) => {
    const clock = new FakeClock().install();
    t.after(() => clock.uninstall());
    const { connection, peer } = connect({ timeout: 1000 });
    await assert.rejects(connection.request('tools/call', { n: 10n }), TypeError);
    assert.deepEqual(peer.sent, []);
    await clock.advance(1000);
    assert.deepEqual(peer.sent, [], 'a cancellation was sent for a request that never went out');
  });
});
