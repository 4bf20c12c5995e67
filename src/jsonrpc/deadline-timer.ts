// One timer for every timeout of a connection's outgoing requests. A request's timeouts are deadlines
// (numbers on a monotonic clock); the single timer is set for the earliest one that matters and, when it
// fires, the owner looks for what has expired and names the next deadline.
//
// Why not a Node timer per request: with many requests in flight, creating and clearing one or two timers
// (and their closures) for every call was a third of a client's CPU per call. Most deadlines of a
// connection fall after the one the timer is already set for (same timeout, later start), and moving a
// deadline later (a timeout reset by progress) costs nothing: the timer fires, finds nothing expired, and
// is set again for what is now the earliest deadline. When nothing is pending the timer is kept but
// unreferenced (it no longer keeps the process alive): setting and clearing a timer around every call was
// 10 µs of CPU per serial call, while referencing it again is a flag.

import { monotonicNow } from './clock.js';

/** The longest delay setTimeout honours; a longer one would fire at once. */
const MAX_DELAY = 2 ** 31 - 1;

export class DeadlineTimer {
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the timer is set to fire, on `now()`'s clock; Infinity when it is not set. */
  private due = Number.POSITIVE_INFINITY;
  /** Whether the timer keeps the process alive (it does while requests are pending). */
  private referenced = false;

  /**
   * @param expire called when the timer fires, with the current time: handles every deadline that has
   * passed and returns the earliest one still ahead (Infinity for none).
   * @param options `keepsAlive: false` for deadlines that must never keep the process alive (an HTTP
   * endpoint's: its sockets do, or not); `now` for a clock of the caller's (tests).
   */
  constructor(
    private readonly expire: (now: number) => number,
    private readonly options: { keepsAlive?: boolean; now?: () => number } = {},
  ) {}

  /** Milliseconds on a monotonic clock (wall-clock steps must not time requests out). */
  now(): number {
    return this.options.now ? this.options.now() : monotonicNow();
  }

  /** Makes sure the timer fires no later than `deadline`, and that it keeps the process alive until then. */
  ensure(deadline: number): void {
    if (deadline === Number.POSITIVE_INFINITY) return;
    if (deadline >= this.due) {
      if (!this.referenced && this.timer !== undefined && this.options.keepsAlive !== false) {
        this.timer.ref();
        this.referenced = true;
      }
      return;
    }
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.due = deadline;
    const delay = Math.min(Math.max(0, Math.ceil(deadline - this.now())), MAX_DELAY);
    this.timer = setTimeout(this.fire, delay);
    this.referenced = this.options.keepsAlive !== false;
    if (!this.referenced) this.timer.unref();
  }

  /** Nothing waits for a deadline now: the timer stays set, but no longer keeps the process alive. */
  idle(): void {
    if (!this.referenced || this.timer === undefined) return;
    this.timer.unref();
    this.referenced = false;
  }

  /** Stops the timer for good (the connection closed). */
  stop(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.due = Number.POSITIVE_INFINITY;
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    this.due = Number.POSITIVE_INFINITY;
    const next = this.expire(this.now());
    if (next !== Number.POSITIVE_INFINITY) this.ensure(next);
  };
}
