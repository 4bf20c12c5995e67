// Judging a ratio to a lower bound on a machine that cannot measure it exactly. The lower bound runs as two
// copies, each under its own client, taking turns with the other subjects; the reference a subject is
// divided by is, round by round, the geometric mean of the two copies (one copy's luck, a slow run or a
// process pair the host placed badly, weighs half). A target is then met only when the ratio's whole
// interval (its median less and plus its resolution) meets it, missed only when the whole interval
// misses it, and otherwise "within the resolution": the run cannot tell. A target of 1x the lower bound
// (issue 21's JSON row, beside a server that validates nothing) can be no better than that: the lower
// bound itself is within its own resolution of 1x.

import { median, roundRatios } from './timing.js';

/** A row's target: calls/s at least `rate` times the lower bound's, CPU per call at most `cpu` times. */
export interface RatioGoal {
  rate: number;
  cpu?: number;
}

export type Verdict = 'met' | 'within' | 'missed';

/** A ratio: the median of its rounds, and the interval its resolution leaves. */
export interface Judged {
  median: number;
  low: number;
  high: number;
}

/** Round by round, the geometric mean of the two copies' values (undefined where either is). */
export function pairOf(
  a: ReadonlyArray<number | undefined>,
  b: ReadonlyArray<number | undefined>,
): Array<number | undefined> {
  return a.map((x, round) => {
    const y = b[round];
    return x === undefined || y === undefined ? undefined : Math.sqrt(x * y);
  });
}

/**
 * A ratio's median over its rounds and its interval: the median times and divided by e^δ, δ twice the
 * standard error of the median of the log ratios (1.2533 σ / √n, the median's standard error for a
 * normal sample, √(π/2); σ estimated robustly, 1.4826 times the median absolute deviation). Rounds with a
 * ratio that is not a positive number are left out; undefined when none is left.
 */
export function judgeRounds(ratios: readonly number[]): Judged | undefined {
  const kept = ratios.filter((r) => Number.isFinite(r) && r > 0);
  if (kept.length === 0) return undefined;
  const logs = kept.map(Math.log);
  const center = median(logs);
  const sigma = 1.4826 * median(logs.map((x) => Math.abs(x - center)));
  const delta = (2 * 1.2533 * sigma) / Math.sqrt(logs.length);
  const middle = median(kept);
  return { median: middle, low: middle * Math.exp(-delta), high: middle * Math.exp(delta) };
}

/** One subject's runs: each round's time and (when measured) its CPU time. */
export interface SubjectRuns {
  times: readonly number[];
  cpus: ReadonlyArray<number | undefined>;
}

/**
 * A subject's calls/s and CPU per call against the two copies of the lower bound, round by round: the
 * pair's time over the subject's (a rate's ratio is the inverse ratio of the times), and the subject's
 * CPU over the pair's. cpu is undefined when no round has both.
 */
export function againstPair(
  subject: SubjectRuns,
  first: SubjectRuns,
  second: SubjectRuns,
): { rate: Judged; cpu: Judged | undefined } {
  const rate = judgeRounds(roundRatios(pairOf(first.times, second.times), subject.times));
  if (rate === undefined) throw new Error('no round with a time for the subject and both copies');
  return { rate, cpu: judgeRounds(roundRatios(subject.cpus, pairOf(first.cpus, second.cpus))) };
}

/**
 * The verdict on a goal: met when the whole interval of calls/s is at or above it and the whole interval
 * of CPU at or below it; missed when either interval is wholly on the wrong side; within otherwise. A CPU
 * goal with no CPU measured is missed.
 */
export function verdictOf(goal: RatioGoal, rate: Judged, cpu: Judged | undefined): Verdict {
  if (rate.high < goal.rate) return 'missed';
  if (goal.cpu !== undefined && (cpu === undefined || cpu.low > goal.cpu)) return 'missed';
  const cpuMet = goal.cpu === undefined || cpu!.high <= goal.cpu;
  return rate.low >= goal.rate && cpuMet ? 'met' : 'within';
}

/** The target as the table shows it, with the intervals it was judged on. */
export function targetText(goal: RatioGoal, rate: Judged, cpu: Judged | undefined): string {
  const interval = (j: Judged) => `${j.low.toFixed(2)}x to ${j.high.toFixed(2)}x`;
  const rateText = `>= ${goal.rate}x hand-written calls/s (${interval(rate)})`;
  if (goal.cpu === undefined) return rateText;
  return `${rateText}, <= ${goal.cpu}x its CPU/call (${cpu ? interval(cpu) : 'not measured'})`;
}
