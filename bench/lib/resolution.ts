// A ratio's target held to within the run's resolution. The lower bound is measured twice in the same
// rounds (a control: the same server again, under its own client). On a quiet machine the second copy's
// ratio to the first would be 1x; here two copies of one server differ by up to several percent for the
// whole run (where the host placed each process pair, what its other tenants did meanwhile), beside the
// noise from round to round. A target near parity (issue 21's JSON row asks for 1x the lower bound, a
// server that validates nothing) would otherwise be decided by which copy the machine happened to slow.

import { median } from './timing.js';

/** A row's target: calls/s at least `rate` times the lower bound's, CPU per call at most `cpu` times. */
export interface RatioGoal {
  rate: number;
  cpu?: number;
}

/** How far apart the lower bound and its control can be told, for calls/s and for CPU per call. */
export interface Resolution {
  rate: number;
  cpu: number;
}

/**
 * The resolution of one measure from the control's ratios to the lower bound, round by round: the larger
 * of how far their median landed from 1x (what set the two copies apart for the whole run) and twice the
 * standard error of that median (what the rounds' spread alone leaves uncertain, so that a control that
 * lands on 1x by chance does not claim a resolution the rounds cannot give). The standard error is the
 * median's (1.2533 σ / √n), σ estimated robustly from the log ratios' median absolute deviation.
 */
export function resolutionOfRounds(ratios: readonly number[]): number {
  if (ratios.length === 0) return 0;
  const logs = ratios.map(Math.log);
  const center = median(logs);
  const sigma = 1.4826 * median(logs.map((x) => Math.abs(x - center)));
  const standardError = (1.2533 * sigma) / Math.sqrt(logs.length);
  return Math.max(Math.abs(1 - Math.exp(center)), Math.expm1(2 * standardError));
}

/** The resolution of calls/s and CPU per call from the control's round ratios (CPU may be unmeasured). */
export function resolutionOf(rateRatios: readonly number[], cpuRatios: readonly number[]): Resolution {
  return { rate: resolutionOfRounds(rateRatios), cpu: resolutionOfRounds(cpuRatios) };
}

/**
 * Whether the ratios meet the goal within the resolution: calls/s at least the goal less it, CPU per
 * call at most the goal plus it. A CPU goal with no CPU measured is not met.
 */
export function heldTo(
  goal: RatioGoal,
  resolution: Resolution,
  rate: number,
  cpu: number | undefined,
): boolean {
  if (rate < goal.rate - resolution.rate) return false;
  if (goal.cpu === undefined) return true;
  return cpu !== undefined && cpu <= goal.cpu + resolution.cpu;
}

/** The target as the table shows it, with the resolution it was held to. */
export function targetText(goal: RatioGoal, resolution: Resolution): string {
  const within = (r: number) => (r >= 0.005 ? ` (± ${r.toFixed(2)})` : '');
  const cpu = goal.cpu === undefined ? '' : `, <= ${goal.cpu}x${within(resolution.cpu)} its CPU/call`;
  return `>= ${goal.rate}x${within(resolution.rate)} hand-written calls/s${cpu}`;
}
