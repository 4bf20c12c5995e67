// The bench's targets near parity are held to within the run's resolution, measured by a control: the
// lower bound run a second time in the same rounds (bench/lib/resolution.ts, issue 21).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { heldTo, resolutionOf, resolutionOfRounds, targetText } from '../../bench/lib/resolution.js';

const near = (actual: number, expected: number) =>
  assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} is not ${expected}`);
const repeat = (ratio: number, rounds: number) => Array.from({ length: rounds }, () => ratio);

describe('bench resolution', () => {
  it("is the control's distance from 1x when its rounds agree, whichever side it lands on", () => {
    near(resolutionOfRounds(repeat(0.97, 9)), 0.03);
    near(resolutionOfRounds(repeat(1.03, 9)), 0.03);
    assert.equal(resolutionOfRounds([]), 0);
  });

  it('is at least twice the standard error of the median when the control lands on 1x by chance', () => {
    // ln ratios -0.2 … 0.2: median 0, median absolute deviation 0.1, so σ = 0.14826 and the median's
    // standard error 1.2533 σ / √5; the distance from 1x (0) is the smaller.
    const rounds = [-0.2, -0.1, 0, 0.1, 0.2].map(Math.exp);
    near(resolutionOfRounds(rounds), 0.18080608109622312);
    // More rounds of the same spread tell more finely.
    assert.ok(resolutionOfRounds([...rounds, ...rounds, ...rounds, ...rounds]) < 0.1);
  });

  it('holds calls/s to the goal less the resolution, and no lower', () => {
    const goal = { rate: 1 };
    const resolution = { rate: 0.03, cpu: 0 };
    assert.equal(heldTo(goal, resolution, 0.975, undefined), true);
    assert.equal(heldTo(goal, resolution, 0.965, undefined), false);
    // At a resolution of 0, the goal is the goal.
    assert.equal(heldTo(goal, { rate: 0, cpu: 0 }, 0.999, undefined), false);
    assert.equal(heldTo(goal, { rate: 0, cpu: 0 }, 1, undefined), true);
  });

  it('holds CPU per call to the goal plus the resolution, and refuses a CPU goal with no CPU measured', () => {
    const goal = { rate: 0.9, cpu: 1.3 };
    const resolution = resolutionOf(repeat(1, 9), repeat(1.05, 9));
    assert.equal(heldTo(goal, resolution, 0.95, 1.34), true);
    assert.equal(heldTo(goal, resolution, 0.95, 1.36), false);
    assert.equal(heldTo(goal, resolution, 0.95, undefined), false);
    // The rate is still held when the CPU is fine.
    assert.equal(heldTo(goal, resolution, 0.89, 1.0), false);
  });

  it('says what the target was held to', () => {
    assert.equal(targetText({ rate: 1 }, { rate: 0.03, cpu: 0 }), '>= 1x (± 0.03) hand-written calls/s');
    assert.equal(
      targetText({ rate: 0.9, cpu: 1.3 }, { rate: 0.001, cpu: 0.06 }),
      '>= 0.9x hand-written calls/s, <= 1.3x (± 0.06) its CPU/call',
    );
  });
});
