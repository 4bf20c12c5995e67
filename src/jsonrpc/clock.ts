// The monotonic clock every deadline and timestamp of the library reads (milliseconds; wall-clock steps
// must not time requests out).
//
// `performance` is Node's global, not an import of node:perf_hooks: importing that module as ESM loaded a
// dozen internal modules into every process at start-up, before anything timed (issue 21). The global is
// a getter run at every use, and the clock is read a few times a request, so it is read once: at the
// first reading, not at load, where it would load the same modules.

let clock: typeof performance | undefined;

export function monotonicNow(): number {
  if (clock === undefined) clock = performance;
  return clock.now();
}
