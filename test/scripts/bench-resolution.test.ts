// How the bench judges a ratio to a lower bound it cannot measure exactly (bench/lib/resolution.ts, issue
// 21): against both copies of the lower bound, with an interval from the rounds' spread, and a verdict in
// three (met, missed, or undecided when the run cannot tell).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  againstPair,
  judgeRounds,
  pairOf,
  type SubjectRuns,
  targetText,
  verdictOf,
} from '../../bench/lib/resolution.js';
import { medianOfRatios, ratiosByRound } from '../../bench/lib/timing.js';

const near = (actual: number, expected: number, tolerance = 1e-9) =>
  assert.ok(Math.abs(actual - expected) < tolerance, `${actual} is not ${expected}`);
const repeat = (value: number, rounds: number) => Array.from({ length: rounds }, () => value);
const exact = (median: number) => ({ median, low: median, high: median });

describe('bench resolution', () => {
  it('takes a ratio whose rounds agree as exact', () => {
    assert.deepEqual(judgeRounds(repeat(0.97, 9)), exact(0.97));
    assert.equal(judgeRounds([]), undefined);
    // A round that is not a positive number (an unmeasured CPU time) is left out.
    assert.deepEqual(judgeRounds([0.97, Number.NaN, 0, 0.97, 0.97]), exact(0.97));
  });

  it("widens the interval by twice the median's standard error, from the rounds' spread", () => {
    // ln ratios -0.2 … 0.2: median 0, median absolute deviation 0.1, so σ = 1.4826 × 0.1 and the
    // median's standard error √(π/2) σ / √5.
    const judged = judgeRounds([-0.2, -0.1, 0, 0.1, 0.2].map(Math.exp))!;
    const delta = (2 * Math.sqrt(Math.PI / 2) * 0.14826) / Math.sqrt(5);
    near(judged.median, 1);
    near(judged.low, Math.exp(-delta), 1e-4);
    near(judged.high, Math.exp(delta), 1e-4);
    // Four times the rounds with the same spread: half the width.
    const more = judgeRounds(repeat(0, 4).flatMap(() => [-0.2, -0.1, 0, 0.1, 0.2].map(Math.exp)))!;
    near(Math.log(more.high), delta / 2, 1e-4);
  });

  it('counts rounds in forks as the fewer samples they are of what stays with a fork', () => {
    // Three forks of four rounds, each fork agreeing with itself but at its own level (ln -0.04, 0, 0.04):
    // taken as twelve rounds the width would be twice the median's standard error; taken as forks it is
    // t(2) = 4.303 times their standard deviation (0.04) over √3.
    const forks = [-0.04, 0, 0.04].flatMap((level) => repeat(Math.exp(level), 4));
    const pooled = judgeRounds(forks)!;
    const asForks = judgeRounds(forks, 4)!;
    near(Math.log(asForks.high), (4.303 * 0.04) / Math.sqrt(3), 1e-9);
    assert.ok(Math.log(asForks.high) > 2 * Math.log(pooled.high), `${asForks.high} against ${pooled.high}`);
    // One fork: nothing to count but its rounds.
    assert.deepEqual(judgeRounds(repeat(1.02, 4), 4), exact(1.02));
    // Forks that agree leave the rounds' width.
    near(judgeRounds(repeat(1.02, 12), 4)!.high, 1.02);
  });

  it('meets a goal only when the whole interval does, and misses it only when the whole interval misses', () => {
    const goal = { rate: 1 };
    assert.equal(verdictOf(goal, { median: 1.05, low: 1.01, high: 1.09 }, undefined), 'met');
    assert.equal(verdictOf(goal, { median: 0.99, low: 0.95, high: 1.03 }, undefined), 'undecided');
    assert.equal(verdictOf(goal, { median: 1.02, low: 0.98, high: 1.06 }, undefined), 'undecided');
    assert.equal(verdictOf(goal, { median: 0.95, low: 0.93, high: 0.97 }, undefined), 'missed');
    // An exact ratio is met or missed by the goal alone.
    assert.equal(verdictOf(goal, exact(1), undefined), 'met');
    assert.equal(verdictOf(goal, exact(0.999), undefined), 'missed');
  });

  it('holds CPU per call to its goal the other way round', () => {
    const goal = { rate: 0.9, cpu: 1.3 };
    const rate = exact(1);
    assert.equal(verdictOf(goal, rate, { median: 1.1, low: 1.05, high: 1.15 }), 'met');
    assert.equal(verdictOf(goal, rate, { median: 1.28, low: 1.24, high: 1.32 }), 'undecided');
    assert.equal(verdictOf(goal, rate, { median: 1.4, low: 1.35, high: 1.45 }), 'missed');
    // No CPU measured: the run cannot tell, whatever the rate.
    assert.equal(verdictOf(goal, rate, undefined), 'undecided');
    // A missed rate is missed whatever the CPU, and a missed CPU whatever the rate.
    assert.equal(verdictOf(goal, exact(0.85), exact(1)), 'missed');
    assert.equal(verdictOf(goal, { median: 0.9, low: 0.88, high: 0.92 }, exact(1.4)), 'missed');
  });

  it('divides by both copies of the lower bound, so that one slowed copy weighs half', () => {
    assert.deepEqual(pairOf([4, 9, undefined], [1, 4, 2]), [2, 6, undefined]);
    const runs = (time: number, cpu: number): SubjectRuns => ({
      times: repeat(time, 6),
      cpus: repeat(cpu, 6),
    });
    // The first copy ran 8% slow for the whole run; a subject as fast as the other copy is 1.04x the
    // pair's calls/s (not 1.08x of the slowed copy), and one as fast as the slowed copy 0.96x.
    const first = runs(108, 50);
    const second = runs(100, 50);
    near(againstPair(runs(100, 55), first, second).rate.median, Math.sqrt(1.08));
    near(againstPair(runs(108, 55), first, second).rate.median, Math.sqrt(1.08) / 1.08);
    // Calls/s is the pair's time over the subject's; CPU the subject's over the pair's.
    near(againstPair(runs(50, 55), second, second).rate.median, 2);
    near(againstPair(runs(50, 55), second, second).cpu!.median, 1.1);
    // Copies that stayed 10% apart, every round alike: no interval is narrower than each copy's distance
    // from their mean, √1.1, though the subject's own rounds agree exactly.
    const apart = againstPair(runs(100, 50), runs(110, 55), runs(100, 50));
    near(apart.rate.median, Math.sqrt(1.1));
    near(Math.log(apart.rate.high / apart.rate.median), Math.log(1.1) / 2);
    near(Math.log(apart.cpu!.median / apart.cpu!.low), Math.log(1.1) / 2);
    // Round by round, not a ratio of medians: rounds [100, 200] against copies [110, 180] are 1.1x and
    // 0.9x, their median (in log terms) √0.99, where the medians' quotient would be 145 / 150.
    const paired = againstPair(
      { times: [100, 200], cpus: [1, 1] },
      { times: [110, 180], cpus: [1, 1] },
      { times: [110, 180], cpus: [1, 1] },
    );
    near(paired.rate.median, Math.sqrt(0.99));
    // A round missing on one side keeps the others in their forks: CPU ratios [–, 1, 2, 2] in forks of
    // two are forks {1} and {2, 2} (medians 0 and ln 2: t(1) = 12.706 times ln 2 / √2 over √2), not
    // {1, 2} and {2} as they would be were the gap closed up.
    const gap = againstPair(
      { times: [100, 100, 100, 100], cpus: [undefined, 1, 2, 2] },
      { times: [100, 100, 100, 100], cpus: [1, 1, 1, 1] },
      { times: [100, 100, 100, 100], cpus: [1, 1, 1, 1] },
      2,
    );
    near(gap.cpu!.median, 2);
    near(Math.log(gap.cpu!.high / gap.cpu!.median), (12.706 * Math.LN2) / 2, 1e-9);
    // No CPU measured: no CPU ratio.
    const untimed: SubjectRuns = { times: repeat(100, 6), cpus: repeat(0, 6).map(() => undefined) };
    assert.equal(againstPair(untimed, second, second).cpu, undefined);
  });

  it('says what the target was judged on', () => {
    assert.equal(
      targetText({ rate: 1 }, { median: 0.99, low: 0.954, high: 1.031 }, undefined),
      '>= 1x hand-written calls/s (0.95x to 1.03x)',
    );
    assert.equal(
      targetText({ rate: 0.9, cpu: 1.3 }, exact(1), undefined),
      '>= 0.9x hand-written calls/s (1.00x to 1.00x), <= 1.3x its CPU/call (not measured)',
    );
  });
});

describe('bench round ratios', () => {
  it('pairs rounds in place, and leaves out what a median of ratios cannot use', () => {
    // Round 1 has no value on one side (NaN), round 2 divides by zero (not finite): both keep their place.
    assert.deepEqual(ratiosByRound([2, 3, 4, 6], [1, undefined, 0, 3]), [
      2,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      2,
    ]);
    assert.equal(medianOfRatios([2, 3, 4, 9], [1, undefined, 0, 3]), 2.5);
    assert.equal(medianOfRatios([1], [0]), undefined);
  });
});
