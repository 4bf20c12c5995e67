// The order in which subjects take their turns in a round: a Williams design. Over one cycle (n rounds
// for n subjects, 2n when n is odd) each subject comes first equally often and follows every other
// subject equally often, so what a run leaves behind (its garbage, its sockets closing, the caches it
// took) falls on every subject alike. A plain rotation (0 1 2, 1 2 0, 2 0 1) has each subject always
// follow the same one.

/** The rounds in one balanced cycle for n subjects. */
export function turnCycle(n: number): number {
  return n % 2 === 1 && n > 1 ? 2 * n : n;
}

/** The number of rounds nearest `about` that is a whole number of cycles (one at least). */
export function balancedRuns(n: number, about: number): number {
  const cycle = turnCycle(n);
  return Math.max(1, Math.round(about / cycle)) * cycle;
}

/** The subjects' indexes in the order they run in round `round` (0-based). */
export function turnOrder(n: number, round: number): number[] {
  // The first row is 0, 1, n-1, 2, n-2, …; row i adds i to each (mod n); for odd n the second half of
  // the cycle runs the first half's rows backwards.
  const first = Array.from({ length: n }, (_, j) => (j === 0 ? 0 : j % 2 === 1 ? (j + 1) / 2 : n - j / 2));
  const r = round % turnCycle(n);
  const row = first.map((x) => (x + r) % n);
  return r >= n ? row.reverse() : row;
}
