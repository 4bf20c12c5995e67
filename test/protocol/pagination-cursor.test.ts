// paginate() and its cursors, directly: page boundaries, and cursors that belong to another list, point
// outside it, or were never issued.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JsonRpcError } from '../../src/jsonrpc/errors.js';
import { decodeCursor, encodeCursor, paginate } from '../../src/protocol/pagination.js';

const invalidParams = (error: unknown) => error instanceof JsonRpcError && error.code === -32602;

describe('paginate', () => {
  it('[pagination.end] gives no nextCursor on a last page that is exactly full, nor on an empty list', () => {
    const first = paginate([1, 2, 3, 4], undefined, 2, 'tools/list');
    assert.deepEqual(first.items, [1, 2]);
    const second = paginate([1, 2, 3, 4], first.nextCursor, 2, 'tools/list');
    assert.deepEqual(second, { items: [3, 4] });
    assert.deepEqual(paginate([], undefined, 2, 'tools/list'), { items: [] });
  });

  it('[pagination.opaque-cursor] issues cursors that are URL-safe strings and decode only for their list', () => {
    const cursor = encodeCursor(40, 'prompts/list');
    assert.match(cursor, /^[A-Za-z0-9_-]+$/);
    assert.equal(decodeCursor(cursor, 'prompts/list'), 40);
    assert.throws(() => decodeCursor(cursor, 'tools/list'), invalidParams);
  });

  it('[pagination.invalid-cursor] refuses cursors it never issued, and positions outside the list', () => {
    const items = [1, 2, 3];
    for (const cursor of [
      'garbage',
      '',
      7,
      null,
      encodeCursor(-1, 'tools/list'),
      encodeCursor(4, 'tools/list'),
      encodeCursor(1.5, 'tools/list'),
      encodeCursor('1', 'tools/list'),
      Buffer.from('[1,2]').toString('base64url'),
    ]) {
      assert.throws(() => paginate(items, cursor, 2, 'tools/list'), invalidParams, JSON.stringify(cursor));
    }
  });
});
