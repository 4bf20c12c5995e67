// Many short deadlines that are nearly always met first, on one unreferenced DeadlineTimer: a POST body's
// stall limit (408) and a POST stream's wait before it opens as SSE (streamAfter). Each was a Node timer
// made and cleared per POST, two of them, some 10 µs of CPU per proxied call at one in flight (issue 19).
// A deadline here is an entry in a set; when the timer fires, what has expired fires and the timer is set
// for the next. A deadline moved later (a body still arriving) costs nothing until the timer finds it not
// yet due.

import { DeadlineTimer } from '../../jsonrpc/deadline-timer.js';

/** Something with a deadline, on performance.now()'s clock. */
export interface Due {
  at: number;
  fire(): void;
}

export class Deadlines {
  private readonly waiting = new Set<Due>();
  private readonly timer: DeadlineTimer;

  constructor(now?: () => number) {
    // Neither a stalled body nor a stream's opening keeps the process alive: their sockets do, or not.
    this.timer = new DeadlineTimer((at) => this.expire(at), { keepsAlive: false, now });
  }

  /** Fires `entry` once `entry.at` has passed, unless it is deleted first. */
  add(entry: Due): void {
    this.waiting.add(entry);
    this.timer.ensure(entry.at);
  }

  delete(entry: Due): void {
    this.waiting.delete(entry);
  }

  get size(): number {
    return this.waiting.size;
  }

  /** Fires what is due at `now`; the earliest deadline still ahead (an entry fired may have added one). */
  private expire(now: number): number {
    let next = Number.POSITIVE_INFINITY;
    for (const entry of this.waiting) {
      if (entry.at <= now) {
        this.waiting.delete(entry);
        entry.fire();
      } else if (entry.at < next) next = entry.at;
    }
    return next;
  }
}
