// How something that reconnects waits between attempts, and when it gives up: one small interface (as
// Rust's rmcp has) for every place that tries again, so that a user sets it the same way for an HTTP
// stream that broke and for a server process that crashed.

export interface RetryPolicy {
  /**
   * The delay before retry number `attempt` (1 for the first), in ms, or undefined to give up.
   * `suggested` is the delay the peer asked for, when it named one (the `retry` field of an SSE stream).
   */
  delay(attempt: number, suggested?: number): number | undefined;
}

/** Never tries again. */
export const neverRetry: RetryPolicy = { delay: () => undefined };

/** The same delay every time (or the one the peer suggests), at most `maxAttempts` times in a row. */
export function fixedRetry(delayMs: number, maxAttempts: number): RetryPolicy {
  return { delay: (attempt, suggested) => (attempt <= maxAttempts ? (suggested ?? delayMs) : undefined) };
}

export interface ExponentialRetryOptions {
  /** The first delay, in ms (500). */
  initialDelay?: number;
  /** The longest delay, in ms (30 000). */
  maxDelay?: number;
  /** Attempts before giving up (5). */
  maxAttempts?: number;
  /** What each delay is multiplied by (2). */
  factor?: number;
}

/** A delay that grows by `factor` each attempt up to `maxDelay`; a delay the peer suggests wins. */
export function exponentialRetry(options: ExponentialRetryOptions = {}): RetryPolicy {
  const { initialDelay = 500, maxDelay = 30_000, maxAttempts = 5, factor = 2 } = options;
  return {
    delay: (attempt, suggested) =>
      attempt > maxAttempts
        ? undefined
        : (suggested ?? Math.min(initialDelay * factor ** (attempt - 1), maxDelay)),
  };
}
