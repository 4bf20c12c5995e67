// Many short deadlines that are nearly always met first, on one unreferenced DeadlineTimer: a POST body's
// stall limit (408) and a POST stream's wait before it opens as SSE (streamAfter). Each was a Node timer
// made and cleared per POST, two of them, some 10 µs of CPU per proxied call at one in flight (issue 19).
// A deadline here is an entry in a list; when the timer fires, what has expired fires and the timer is set
// for the next. A deadline moved later (a body still arriving) costs nothing until the timer finds it not
// yet due.

import { DeadlineTimer } from '../../jsonrpc/deadline-timer.js';
import { type Slotted, SlottedSet } from '../../jsonrpc/slotted-set.js';

/** Something with a deadline, on performance.now()'s clock. */
export interface Due extends Slotted {
  at: number;
  fire(): void;
}

export class Deadlines {
  /** The deadlines waiting, each knowing its place (a Set of them cost every POST, which makes one). */
  private readonly waiting = new SlottedSet<Due>();
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
    // What is due is taken out first (the iteration is over a copy): firing one may add or delete others.
    for (const entry of this.waiting) {
      // One deleted by an earlier one's firing is no longer held, and does not fire.
      if (entry.at <= now && this.waiting.delete(entry)) entry.fire();
    }
    let next = Number.POSITIVE_INFINITY;
    for (const entry of this.waiting) if (entry.at < next) next = entry.at;
    return next;
  }
}
