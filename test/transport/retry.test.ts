// The retry policies: the delay before each attempt and when to give up, and a delay the peer suggests.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exponentialRetry, fixedRetry, neverRetry } from '../../src/transport/retry.js';

const delays = (policy: { delay(a: number, s?: number): number | undefined }, n: number) =>
  Array.from({ length: n }, (_, i) => policy.delay(i + 1));

describe('retry policies', () => {
  it('neverRetry gives up at once', () => {
    assert.equal(neverRetry.delay(1), undefined);
  });

  it('fixedRetry waits the same delay maxAttempts times, or what the peer suggests', () => {
    assert.deepEqual(delays(fixedRetry(100, 3), 4), [100, 100, 100, undefined]);
    assert.equal(fixedRetry(100, 3).delay(2, 40), 40);
    assert.equal(fixedRetry(100, 3).delay(4, 40), undefined, 'a suggestion does not lift the limit');
  });

  it('exponentialRetry doubles from initialDelay up to maxDelay, maxAttempts times', () => {
    assert.deepEqual(delays(exponentialRetry({ initialDelay: 100, maxDelay: 350, maxAttempts: 4 }), 5), [
      100,
      200,
      350,
      350,
      undefined,
    ]);
    assert.deepEqual(delays(exponentialRetry(), 6), [500, 1000, 2000, 4000, 8000, undefined]);
    assert.deepEqual(
      delays(exponentialRetry({ initialDelay: 10, factor: 3, maxAttempts: 3 }), 3),
      [10, 30, 90],
    );
  });
});
