// peekEnvelope: the top-level id and role of a JSON-RPC message read from a truncated head, as used to
// answer an oversized message. Nested "id" keys (inside params or result) must never be taken for it.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { peekEnvelope } from '../../src/transport/framing/peek.js';

describe('peekEnvelope', () => {
  it('reads a number id and the request role from a head cut inside params', () => {
    const head =
      '{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"upload","arguments":{"data":"xxxx';
    assert.deepEqual(peekEnvelope(head), { id: 42, role: 'request' });
  });

  it('reads a string id, escapes included', () => {
    assert.deepEqual(peekEnvelope('{"jsonrpc":"2.0","id":"req-7","method":"m","params":{"a'), {
      id: 'req-7',
      role: 'request',
    });
    assert.deepEqual(peekEnvelope('{"id":"a\\"b\\\\c\\u00e9","method":"m"'), {
      id: 'a"b\\cé',
      role: 'request',
    });
  });

  it('keeps a string id that looks like a number a string', () => {
    assert.deepEqual(peekEnvelope('{"id":"1","method":"m","params":['), { id: '1', role: 'request' });
  });

  it('reads negative and fractional number ids', () => {
    assert.equal(peekEnvelope('{"id":-3,"method":"m"').id, -3);
    assert.equal(peekEnvelope('{"id":2.5,"method":"m"').id, 2.5);
  });

  it('ignores nested "id" keys in params that come before the top-level id', () => {
    const head =
      '{"jsonrpc":"2.0","method":"tools/call","params":{"id":7,"arguments":{"id":"inner","list":[{"id":8}]}},"id":99,"x":"yyy';
    assert.deepEqual(peekEnvelope(head), { id: 99, role: 'request' });
  });

  it('gives no id when the head ends before the top-level id, even after nested ones', () => {
    const head =
      '{"jsonrpc":"2.0","method":"tools/call","params":{"id":7,"arguments":{"id":"inner","data":"xx';
    assert.deepEqual(peekEnvelope(head), { id: null, role: 'request' });
  });

  it('ignores nested "id" keys in an array of params', () => {
    assert.deepEqual(peekEnvelope('{"jsonrpc":"2.0","method":"m","params":[{"id":1},[{"id":2}]],"id":3,"'), {
      id: 3,
      role: 'request',
    });
  });

  it('is not fooled by braces, brackets, quotes and "id" inside string values', () => {
    const head = '{"method":"m","params":{"text":"}]} \\"id\\":5, {\\"id\\": 6","id":"not"},"id":4,"z';
    assert.deepEqual(peekEnvelope(head), { id: 4, role: 'request' });
  });

  it('does not take a string value "id" for a key', () => {
    assert.deepEqual(peekEnvelope('{"method":"id","params":{"a":1},"id":11,"'), { id: 11, role: 'request' });
  });

  it('reads a response with its id before the result', () => {
    assert.deepEqual(peekEnvelope('{"jsonrpc":"2.0","id":5,"result":{"id":1,"content":[{"type":"text","t'), {
      id: 5,
      role: 'response',
    });
  });

  it('reads a response whose id comes after the result', () => {
    assert.deepEqual(peekEnvelope('{"jsonrpc":"2.0","result":{"id":1,"method":"x"},"id":"r1","'), {
      id: 'r1',
      role: 'response',
    });
  });

  it('reads an error response', () => {
    assert.deepEqual(peekEnvelope('{"jsonrpc":"2.0","id":6,"error":{"code":-32603,"message":"xx'), {
      id: 6,
      role: 'response',
    });
  });

  it('does not take a nested "method" or "result" key for the role', () => {
    assert.deepEqual(peekEnvelope('{"jsonrpc":"2.0","id":1,"result":{"method":"m","data":"x'), {
      id: 1,
      role: 'response',
    });
    assert.deepEqual(peekEnvelope('{"jsonrpc":"2.0","id":1,"params":{"result":1,"error":2,"data":"x'), {
      id: 1,
      role: 'unknown',
    });
  });

  it('does not guess a number id the head may have cut short', () => {
    assert.equal(peekEnvelope('{"jsonrpc":"2.0","id":12').id, null);
    assert.equal(peekEnvelope('{"jsonrpc":"2.0","id":12,').id, 12);
    assert.equal(peekEnvelope('{"jsonrpc":"2.0","id":12 ').id, 12);
  });

  it('does not guess a string id the head cut inside', () => {
    assert.equal(peekEnvelope('{"jsonrpc":"2.0","id":"abc').id, null);
    assert.equal(peekEnvelope('{"jsonrpc":"2.0","id":"abc\\').id, null);
  });

  it('tolerates whitespace around keys, colons and values', () => {
    assert.deepEqual(
      peekEnvelope('{\n  "jsonrpc" : "2.0",\n  "id" :\t 17 ,\n  "method" : "m",\n  "params": {'),
      {
        id: 17,
        role: 'request',
      },
    );
  });

  it('gives no id for null, true or an object id', () => {
    assert.equal(peekEnvelope('{"id":null,"error":{"code":1').id, null);
    assert.equal(peekEnvelope('{"id":true,"method":"m"').id, null);
    assert.equal(peekEnvelope('{"id":{"id":3},"method":"m"').id, null);
  });

  it('knows nothing from an empty, non-object or batch head', () => {
    assert.deepEqual(peekEnvelope(''), { id: null, role: 'unknown' });
    assert.deepEqual(peekEnvelope('garbage "id": 4'), { id: null, role: 'unknown' });
    assert.deepEqual(peekEnvelope('[{"jsonrpc":"2.0","id":1,"method":"m"},{"id":2'), {
      id: null,
      role: 'unknown',
    });
  });
});

// ---- property: never a wrong id or role, whatever is nested and wherever the head is cut ----

/** JSON values whose objects often have the keys the scanner looks for. */
const tricky = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.integer(),
    fc.string({ unit: 'grapheme', maxLength: 8 }),
    fc.constantFrom('id', 'method', '"id":1', '{"id":2}', '}]', '\\', '"'),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('id', 'method', 'result', 'error', 'params', 'x', 'i"d'), tie('value'), {
      maxKeys: 4,
    }),
  ),
})).value;

const id = fc.oneof(fc.integer(), fc.string({ unit: 'grapheme', maxLength: 8 }));

/** A message with its keys in a random order, so that the id may come before or after nested ids. */
const envelope = fc
  .tuple(
    id,
    fc.constantFrom('request', 'response', 'error') as fc.Arbitrary<'request' | 'response' | 'error'>,
    tricky,
  )
  .chain(([idValue, kind, payload]) => {
    const entries: Array<[string, unknown]> =
      kind === 'request'
        ? [
            ['id', idValue],
            ['method', 'm'],
            ['params', payload],
          ]
        : kind === 'response'
          ? [
              ['id', idValue],
              ['result', payload],
            ]
          : [
              ['id', idValue],
              ['error', { code: 1, message: 'x', data: payload }],
            ];
    return fc
      .shuffledSubarray([['jsonrpc', '2.0'] as [string, unknown], ...entries], {
        minLength: entries.length + 1,
      })
      .map((ordered) => ({
        text: JSON.stringify(Object.fromEntries(ordered)),
        id: idValue,
        role: kind === 'request' ? ('request' as const) : ('response' as const),
      }));
  });

describe('peekEnvelope: properties', () => {
  it('reads the exact id and role from a whole message', () => {
    fc.assert(
      fc.property(envelope, ({ text, id: expected, role }) => {
        assert.deepEqual(peekEnvelope(text), { id: expected, role });
      }),
      { numRuns: 500 },
    );
  });

  it('reports the right id or none, and the right role or unknown, from any truncated head', () => {
    fc.assert(
      fc.property(envelope, fc.nat(), ({ text, id: expected, role }, cutAt) => {
        const peeked = peekEnvelope(text.slice(0, cutAt % (text.length + 1)));
        assert.ok(peeked.id === null || peeked.id === expected, `id ${JSON.stringify(peeked.id)} in ${text}`);
        assert.ok(peeked.role === 'unknown' || peeked.role === role, `role ${peeked.role} in ${text}`);
      }),
      { numRuns: 1000 },
    );
  });
});
