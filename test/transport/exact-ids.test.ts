// Integer ids beyond 2^53: JSON.parse rounds them (9007199254740993 became ...992), so the answer named
// an id the peer never sent. Over a stream transport they are now echoed digit for digit, an "id" nested
// in params is never taken for the message's own, and a batch keeps each item's id.

import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { McpServer } from '../../src/server/server.js';
import { ExactIds } from '../../src/transport/framing/exact-ids.js';
import { StreamTransport } from '../../src/transport/stream.js';

/** A server on a stream transport; `exchange` writes lines and resolves with the lines written back. */
function serve() {
  const input = new PassThrough();
  const output = new PassThrough();
  const server = new McpServer({ name: 'ids', version: '1.0.0' });
  server.tool({ name: 'echo', description: 'echo' }, () => ({ content: [{ type: 'text', text: 'ok' }] }));
  void server.connect(new StreamTransport(input, output));
  let text = '';
  const waiters: Array<() => void> = [];
  output.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
    for (const wake of waiters.splice(0)) wake();
  });
  const lines = () => text.split('\n').filter(Boolean);
  return {
    async exchange(sent: string[], answers: number): Promise<string[]> {
      const before = lines().length;
      input.write(`${sent.join('\n')}\n`);
      while (lines().length < before + answers) await new Promise<void>((resolve) => waiters.push(resolve));
      return lines().slice(before);
    },
  };
}

const INITIALIZE =
  '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}';

describe('integer ids beyond 2^53', () => {
  it('bug: an id above 2^53 came back rounded; it is echoed exactly as it was written', async () => {
    const peer = serve();
    await peer.exchange([INITIALIZE, '{"jsonrpc":"2.0","method":"notifications/initialized"}'], 1);
    const [answer] = await peer.exchange(
      ['{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/list"}'],
      1,
    );
    assert.match(answer!, /^\{"jsonrpc":"2\.0","id":9007199254740993,"result":/);
    // A nested "id" before the message's own, and a negative one, are told apart.
    const [call] = await peer.exchange(
      [
        '{"jsonrpc":"2.0","params":{"name":"echo","arguments":{"id":1}},"method":"tools/call","id":-12345678901234567890}',
      ],
      1,
    );
    assert.match(call!, /"id":-12345678901234567890,/);
  });

  it('keeps each id of a batch, and leaves ordinary ids alone', () => {
    const ids = new ExactIds();
    const text =
      '[{"jsonrpc":"2.0","id":18014398509481985,"method":"a","params":{"id":3}},{"jsonrpc":"2.0","id":7,"method":"b"}]';
    const read = ids.read(JSON.parse(text), text) as Array<{ id: unknown }>;
    assert.equal(read[1]!.id, 7);
    const echoed = ids.write(JSON.stringify(read.map((m) => ({ jsonrpc: '2.0', id: m.id, result: {} }))));
    assert.equal(
      echoed,
      '[{"jsonrpc":"2.0","id":18014398509481985,"result":{}},{"jsonrpc":"2.0","id":7,"result":{}}]',
    );
    // Nothing is searched or changed while no id needed keeping.
    const plain = new ExactIds();
    const ordinary = '{"jsonrpc":"2.0","id":1,"method":"x"}';
    const parsed = JSON.parse(ordinary) as unknown;
    assert.equal(plain.read(parsed, ordinary), parsed, 'the same message, untouched');
    assert.equal(plain.write('{"id":"\\u0000exact-id:5"}'), '{"id":"\\u0000exact-id:5"}');
  });
});
