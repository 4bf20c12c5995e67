// What we write is bounded like what we read: an answer larger than maxMessageSize (a tool result of
// hundreds of MiB, text that JSON escaping makes larger) was written as one giant line that a peer
// with the same limit drops. It is replaced by a -32603 error for its id; smaller answers go as usual,
// in a batch too.

import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { Connection } from '../../src/jsonrpc/connection.js';
import { MessageTooLargeError } from '../../src/jsonrpc/local-errors.js';
import { StreamTransport } from '../../src/transport/stream.js';

function serverOver(limit: number) {
  const input = new PassThrough();
  const output = new PassThrough();
  const lines: unknown[] = [];
  let buffered = '';
  const waiters: Array<() => void> = [];
  output.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let nl = buffered.indexOf('\n'); nl !== -1; nl = buffered.indexOf('\n')) {
      lines.push(JSON.parse(buffered.slice(0, nl)));
      buffered = buffered.slice(nl + 1);
      for (const wake of waiters.splice(0)) wake();
    }
  });
  const transport = new StreamTransport(input, output, { maxMessageSize: limit });
  const connection = new Connection(transport);
  // Escaping doubles a quote: 400 quotes are 800 bytes on the wire.
  connection.onRequest('big', () => ({ text: '"'.repeat(400) }));
  connection.onRequest('small', () => ({ ok: true }));
  connection.start();
  const next = async (count: number) => {
    while (lines.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    return lines;
  };
  return { input, next, transport };
}

describe('the outgoing size limit', () => {
  it('bug: an answer over maxMessageSize was written anyway; it becomes -32603 for its id', async () => {
    const { input, next } = serverOver(500);
    input.write('{"jsonrpc":"2.0","id":1,"method":"big"}\n{"jsonrpc":"2.0","id":2,"method":"small"}\n');
    const [big, small] = await next(2);
    const error = big as { id: number; error: { code: number; message: string } };
    assert.equal(error.id, 1);
    assert.equal(error.error.code, -32603);
    assert.match(error.error.message, /too large to send: the message is \d+ bytes, more than the 500 bytes/);
    assert.deepEqual(small, { jsonrpc: '2.0', id: 2, result: { ok: true } });
  });

  it('in a batch, only the answer that is too large is replaced', async () => {
    const { input, next } = serverOver(500);
    input.write('[{"jsonrpc":"2.0","id":1,"method":"big"},{"jsonrpc":"2.0","id":2,"method":"small"}]\n');
    const [batch] = await next(1);
    const [big, small] = batch as Array<{ id: number; error?: { code: number }; result?: unknown }>;
    assert.equal(big?.error?.code, -32603);
    assert.deepEqual(small?.result, { ok: true });
  });

  it('the transport refuses to write a message over its limit, with the sizes', () => {
    const { transport } = serverOver(100);
    assert.throws(
      () => transport.send({ jsonrpc: '2.0', method: 'x', params: { text: 'é'.repeat(60) } }),
      (e: unknown) => e instanceof MessageTooLargeError && e.limit === 100 && e.size > 100,
    );
  });
});
