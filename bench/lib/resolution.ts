// Judging a ratio to a lower bound on a machine that cannot measure it exactly. The lower bound runs as two
// copies, taking turns with the other subjects; the reference a subject is
// divided by is, round by round, the geometric mean of the two copies (one copy's luck, a slow run or a
// process the host placed badly, weighs half). A ratio has an interval: its median times and divided
// by a width from how its rounds and forks spread. A target is met only when the whole interval meets it,
// missed only when the whole interval misses it, and otherwise undecided: the run cannot tell. A subject
// at a target of 1x the lower bound (issue 21's JSON row, beside a server that validates nothing) is
// undecided unless it is faster, or slower, than the interval's half-width.

import { byRound, median, ratiosByRound } from './timing.js';

/** A row's target: calls/s at least `rate` times the lower bound's, CPU per call at most `cpu` times. */
export interface RatioGoal {
  rate: number;
  cpu?: number;
}

export type Verdict = 'met' | 'undecided' | 'missed';

/** A ratio: the median of its rounds, and the interval its rounds and forks leave. */
export interface Judged {
  median: number;
  low: number;
  high: number;
}

type Rounds = ReadonlyArray<number | undefined>;

/** Round by round, the geometric mean of the two copies' values (undefined where either is). */
export function pairOf(a: Rounds, b: Rounds): Array<number | undefined> {
  return byRound(a, b, (x, y) => Math.sqrt(x * y), undefined);
}

/** Student's t at 97.5% for 1 to 30 degrees of freedom (the forks less one); beyond, 30's (a little wide). */
const T_975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];
const t975 = (df: number) => T_975[Math.min(df, T_975.length) - 1]!;

/**
 * A ratio's median over its rounds and its interval, the median times and divided by e^δ, all in log
 * terms (the median is the log ratios' median, so the interval is centred on it). Rounds with a ratio that
 * is not a positive number are left out; undefined when none is left.
 *
 * δ is the larger of two widths. Twice the standard error of the median of all the rounds: √(π/2) σ / √n
 * (the standard error of a normal sample's median), σ estimated robustly, 1.4826 times the median absolute
 * deviation. And, when the rounds come in forks (`perFork` rounds each, every fork its own processes), the
 * forks' medians as k samples: t(k - 1) times their standard deviation over √k. Rounds in one fork share
 * what stays with its processes (where the host placed them), so across the forks they are fewer
 * independent samples than their number says; with one fork, that cannot be measured, and the rounds'
 * width is all there is. `floor` (in log terms) is the least δ the caller knows the run cannot tell
 * apart (againstPair: how far two copies of one server stayed apart).
 */
export function judgeRounds(
  ratios: readonly number[],
  perFork = ratios.length,
  floor = 0,
): Judged | undefined {
  const logs: number[] = [];
  const forks: number[][] = [];
  ratios.forEach((r, round) => {
    if (!(Number.isFinite(r) && r > 0)) return;
    const log = Math.log(r);
    logs.push(log);
    const fork = Math.floor(round / Math.max(1, perFork));
    forks[fork] ??= [];
    forks[fork].push(log);
  });
  if (logs.length === 0) return undefined;
  const center = median(logs);
  const sigma = 1.4826 * median(logs.map((x) => Math.abs(x - center)));
  let delta = Math.max(floor, (2 * Math.sqrt(Math.PI / 2) * sigma) / Math.sqrt(logs.length));
  const forkMedians = forks.filter((f) => f.length > 0).map(median);
  const k = forkMedians.length;
  if (k >= 2) {
    const mean = forkMedians.reduce((a, b) => a + b, 0) / k;
    const sd = Math.sqrt(forkMedians.reduce((a, b) => a + (b - mean) ** 2, 0) / (k - 1));
    delta = Math.max(delta, (t975(k - 1) * sd) / Math.sqrt(k));
  }
  return { median: Math.exp(center), low: Math.exp(center - delta), high: Math.exp(center + delta) };
}

/** One subject's runs: each round's time and (when measured) its CPU time. */
export interface SubjectRuns {
  times: readonly number[];
  cpus: Rounds;
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
  perFork?: number,
): { rate: Judged; cpu: Judged | undefined } {
  // Two copies of one server can stay apart for a whole run, every fork alike, by more than an interval
  // from the rounds would allow (5% each way in a run of 2026-12-07): whatever sets them apart may set a
  // subject apart too, so no interval is narrower than how far each copy stayed from their mean.
  const split = (a: Rounds, b: Rounds) => {
    const apart = judgeRounds(ratiosByRound(a, b));
    return apart === undefined ? 0 : Math.abs(Math.log(apart.median)) / 2;
  };
  const rate = judgeRounds(
    ratiosByRound(pairOf(first.times, second.times), subject.times),
    perFork,
    split(first.times, second.times),
  );
  if (rate === undefined) throw new Error('no round with a time for the subject and both copies');
  const cpu = judgeRounds(
    ratiosByRound(subject.cpus, pairOf(first.cpus, second.cpus)),
    perFork,
    split(first.cpus, second.cpus),
  );
  return { rate, cpu };
}

/**
 * The verdict on a goal: met when the whole interval of calls/s is at or above it and the whole interval
 * of CPU at or below it; missed when either interval is wholly on the wrong side; otherwise the run cannot
 * tell ("undecided"), as when a CPU goal has no CPU measured.
 */
export function verdictOf(goal: RatioGoal, rate: Judged, cpu: Judged | undefined): Verdict {
  if (rate.high < goal.rate) return 'missed';
  if (goal.cpu !== undefined && cpu !== undefined && cpu.low > goal.cpu) return 'missed';
  const cpuMet = goal.cpu === undefined || (cpu !== undefined && cpu.high <= goal.cpu);
  return rate.low >= goal.rate && cpuMet ? 'met' : 'undecided';
}

/** The target as the table shows it, with the intervals it was judged on. */
export function targetText(goal: RatioGoal, rate: Judged, cpu: Judged | undefined): string {
  const interval = (j: Judged) => `${j.low.toFixed(2)}x to ${j.high.toFixed(2)}x`;
  const rateText = `>= ${goal.rate}x hand-written calls/s (${interval(rate)})`;
  if (goal.cpu === undefined) return rateText;
  return `${rateText}, <= ${goal.cpu}x its CPU/call (${cpu ? interval(cpu) : 'not measured'})`;
}
