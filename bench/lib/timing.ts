// Timing: warm-up, interleaved runs, garbage collection between runs, medians.

import { performance } from 'node:perf_hooks';

const gcFunction = (globalThis as { gc?: () => void }).gc;

/** True when node runs with --expose-gc, so that garbage can be collected between runs. */
export const canCollectGarbage = typeof gcFunction === 'function';

export function collectGarbage(): void {
  gcFunction?.();
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * The median of a / b taken round by round (a[i] with b[i]), leaving out rounds where either is missing
 * or b is 0; undefined if none is left. For subjects that take turns, a round's runs follow one another,
 * so a change in what else the machine runs moves both sides of a round's ratio together, where
 * median(a) / median(b) may pair a fast run of one with a slow run of the other.
 */
export function medianOfRatios(
  a: ReadonlyArray<number | undefined>,
  b: ReadonlyArray<number | undefined>,
): number | undefined {
  const ratios = ratiosByRound(a, b).filter(Number.isFinite);
  return ratios.length > 0 ? median(ratios) : undefined;
}

/** f of a[i] and b[i], round by round, `missing` where either is missing (a round keeps its place). */
export function byRound<T>(
  a: ReadonlyArray<number | undefined>,
  b: ReadonlyArray<number | undefined>,
  f: (x: number, y: number) => number,
  missing: T,
): Array<number | T> {
  return a.map((x, round) => {
    const y = b[round];
    return x === undefined || y === undefined ? missing : f(x, y);
  });
}

/** a[i] / b[i] round by round, in place: NaN where either is missing, not finite where b[i] is 0. */
export function ratiosByRound(
  a: ReadonlyArray<number | undefined>,
  b: ReadonlyArray<number | undefined>,
): number[] {
  return byRound(a, b, (x, y) => x / y, Number.NaN);
}

/** Half the range of the values relative to their median: a rough measure of noise. */
export function relativeSpread(values: readonly number[]): number {
  if (values.length < 2) return 0;
  return (Math.max(...values) - Math.min(...values)) / 2 / median(values);
}

export interface RunCounts {
  /** Untimed runs of each subject first. */
  warmup: number;
  /** Timed runs of each subject. */
  runs: number;
}

export interface Subject<R> {
  name: string;
  /** One run of the work. What it returns is passed to `check`, outside the timed region. */
  run(): R | Promise<R>;
  /** Throws when a run produced a wrong result. */
  check?(result: R): void;
}

/**
 * Runs each subject `warmup` times untimed, then `runs` times timed. Runs are interleaved (a, b, c, b, c,
 * a, ...) so that drift in the machine's speed falls on every subject alike, and garbage is collected
 * before each run when it can be. Returns each subject's run times in milliseconds, by name.
 */
export async function timeInterleaved<R>(
  subjects: ReadonlyArray<Subject<R>>,
  counts: RunCounts,
  onRun?: (subject: string, run: number, ms: number) => void,
): Promise<Map<string, number[]>> {
  const samples = new Map<string, number[]>(subjects.map((s) => [s.name, []]));
  for (let round = 0; round < counts.warmup + counts.runs; round++) {
    // Each round starts with the next subject, so that each runs in every position (first after the
    // previous round's last, say, which matters for large allocations) equally often.
    for (let k = 0; k < subjects.length; k++) {
      const subject = subjects[(round + k) % subjects.length]!;
      collectGarbage();
      const start = performance.now();
      let result = subject.run();
      if (result instanceof Promise) result = await result;
      const ms = performance.now() - start;
      subject.check?.(result);
      if (round >= counts.warmup) {
        samples.get(subject.name)!.push(ms);
        onRun?.(subject.name, round - counts.warmup, ms);
      }
    }
  }
  return samples;
}
