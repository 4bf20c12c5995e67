// The two ways every benchmark client calls: one call at a time, and `window` calls in flight. Shared by
// the drivers (driver.mjs, mcp-driver.mjs) so that every client runs exactly the same loop.
// `call(n)` makes the n-th call and resolves once its result was checked (it throws if the result is wrong).
import { performance } from 'node:perf_hooks';

/** Resolves with the wall time of `calls` calls, each sent when the one before was answered. */
export async function serialCalls(call, calls) {
  const start = performance.now();
  for (let n = 0; n < calls; n++) await call(n);
  return performance.now() - start;
}

/** Resolves with the wall time of `calls` calls, keeping `window` of them in flight. */
export function pipelinedCalls(call, calls, window) {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    let sent = 0;
    let done = 0;
    const next = () => {
      if (done === calls) {
        resolve(performance.now() - start);
        return;
      }
      if (sent === calls) return;
      call(sent++).then(() => {
        done++;
        next();
      }, reject);
    };
    for (let i = 0; i < window; i++) next();
  });
}
