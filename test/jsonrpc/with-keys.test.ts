// withKeys: `{ ...base, ...keys }` the fast way (Object.assign), except that an own "__proto__" key, which
// JSON.parse makes, is copied as a key as a spread copies it, never taken for the copy's prototype.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withKeys } from '../../src/jsonrpc/with-keys.js';

describe('withKeys', () => {
  it("copies the base's keys in order, then the added ones, which win; the base is left as it was", () => {
    const base = { a: 1, b: 2 };
    const copy = withKeys(base, { b: 3, c: 4 });
    assert.deepEqual(Object.entries(copy), [
      ['a', 1],
      ['b', 3],
      ['c', 4],
    ]);
    assert.deepEqual(base, { a: 1, b: 2 });
    assert.notEqual(copy, base);
  });

  it('takes no base', () => {
    assert.deepEqual(withKeys(undefined, { c: 4 }), { c: 4 });
  });

  it('copies an own "__proto__" key of a parsed object as a key, in the base or in the added keys', () => {
    const parsed = JSON.parse('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>;
    for (const copy of [withKeys(parsed, { b: 2 }), withKeys({ b: 2 }, parsed)]) {
      assert.equal(Object.getPrototypeOf(copy), Object.prototype);
      assert.equal((copy as { polluted?: unknown }).polluted, undefined);
      assert.ok(Object.hasOwn(copy, '__proto__'));
      assert.equal((copy as { a?: unknown }).a, 1);
      assert.match(JSON.stringify(copy), /"__proto__":\{"polluted":true\}/);
    }
  });
});
