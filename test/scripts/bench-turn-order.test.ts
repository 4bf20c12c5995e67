// The bench's subjects take their turns in a balanced order (bench/lib/turn-order.ts): over a cycle of
// rounds each comes first equally often and follows each other equally often.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { balancedRuns, turnCycle, turnOrder } from '../../bench/lib/turn-order.js';

describe('bench turn order', () => {
  for (let n = 1; n <= 7; n++) {
    it(`balances ${n} subject${n === 1 ? '' : 's'} over a cycle of ${turnCycle(n)} rounds`, () => {
      const cycle = turnCycle(n);
      const first = new Array<number>(n).fill(0);
      const follows = new Map<string, number>();
      for (let round = 0; round < cycle; round++) {
        const order = turnOrder(n, round);
        assert.deepEqual(
          [...order].sort((a, b) => a - b),
          [...Array(n).keys()],
          `round ${round}: ${order}`,
        );
        first[order[0]!]!++;
        for (let k = 1; k < n; k++) {
          const pair = `${order[k - 1]}>${order[k]}`;
          follows.set(pair, (follows.get(pair) ?? 0) + 1);
        }
      }
      assert.ok(
        first.every((count) => count === cycle / n),
        `firsts ${first}`,
      );
      // Every ordered pair of different subjects, the same number of times.
      assert.equal(follows.size, n * (n - 1));
      assert.equal(new Set(follows.values()).size <= 1, true, JSON.stringify([...follows]));
      // The next cycle repeats this one.
      assert.deepEqual(turnOrder(n, cycle + 1), turnOrder(n, 1));
    });
  }

  it('is a plain order for two subjects, and not a rotation for three', () => {
    assert.deepEqual(
      [0, 1].map((r) => turnOrder(2, r)),
      [
        [0, 1],
        [1, 0],
      ],
    );
    // A rotation (0 1 2, 1 2 0, 2 0 1) always has 0 follow 2; the cycle of six also has 0 follow 1.
    const orders = [0, 1, 2, 3, 4, 5].map((r) => turnOrder(3, r).join(''));
    assert.ok(orders.some((o) => o.includes('10')) && orders.some((o) => o.includes('20')), String(orders));
  });

  it('has a cycle of n rounds for an even n and 2n for an odd one, and runs whole cycles', () => {
    assert.deepEqual([1, 2, 3, 4, 5].map(turnCycle), [1, 2, 6, 4, 10]);
    assert.equal(balancedRuns(3, 7), 6);
    assert.equal(balancedRuns(3, 11), 12);
    assert.equal(balancedRuns(4, 9), 8);
    assert.equal(balancedRuns(5, 3), 10);
    assert.equal(balancedRuns(2, 1), 2);
  });
});
