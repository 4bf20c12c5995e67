// One unreferenced timer for many short deadlines that are nearly always met first: a POST body's stall
// limit (408) and a POST stream's wait before it opens as SSE (streamAfter). Each was a Node timer made and
// cleared per POST, two of them, some 10 µs of CPU per proxied call at one in flight (issue 19). A
// deadline here is an entry in a set: the timer is set for the earliest one when it is later than what
// the timer is set for already, and when it fires, what has expired fires and it is set for the next. A
// deadline moved later (a body still arriving) costs nothing until the timer finds it not yet due.
// `performance` is Node's global: importing node:perf_hooks as ESM loads a dozen modules at start-up.

/** Something with a deadline, on performance.now()'s clock. */
export interface Due {
  at: number;
  fire(): void;
}

export class Deadlines {
  private readonly waiting = new Set<Due>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the timer fires; Infinity while it is not set. */
  private due = Number.POSITIVE_INFINITY;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Fires `entry` once `entry.at` has passed, unless it is deleted first. */
  add(entry: Due): void {
    this.waiting.add(entry);
    this.arm(entry.at);
  }

  delete(entry: Due): void {
    this.waiting.delete(entry);
  }

  get size(): number {
    return this.waiting.size;
  }

  private arm(at: number): void {
    if (at >= this.due) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.due = at;
    this.timer = setTimeout(this.fire, Math.max(0, Math.ceil(at - this.now())));
    // Neither a stalled body nor a stream's opening keeps the process alive: their sockets do, or not.
    this.timer.unref();
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    this.due = Number.POSITIVE_INFINITY;
    const now = this.now();
    let next = Number.POSITIVE_INFINITY;
    for (const entry of this.waiting) {
      if (entry.at <= now) {
        this.waiting.delete(entry);
        entry.fire();
      } else if (entry.at < next) next = entry.at;
    }
    // An entry fired above may have added one (set for `next` already, or earlier).
    if (next !== Number.POSITIVE_INFINITY) this.arm(next);
  };
}
