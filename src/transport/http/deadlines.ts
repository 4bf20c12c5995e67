// Many short deadlines that are nearly always met first, on one unreferenced DeadlineTimer: a POST body's
// stall limit (408) and a POST stream's wait before it opens as SSE (streamAfter). Each was a Node timer
// made and cleared per POST, two of them, some 10 µs of CPU per proxied call at one in flight (issue 19).
// A deadline here is an entry in a list; when the timer fires, what has expired fires and the timer is set
// for the next. A deadline moved later (a body still arriving) costs nothing until the timer finds it not
// yet due.

import { DeadlineTimer } from '../../jsonrpc/deadline-timer.js';

/** Something with a deadline, on performance.now()'s clock. */
export interface Due {
  at: number;
  fire(): void;
  /** Its place in the Deadlines that hold it, while it waits there (theirs to set). */
  slot?: number;
}

export class Deadlines {
  /**
   * The deadlines waiting, each knowing its place: adding and deleting are an array's push and a swap,
   * with no hashing. A Set's delete was some 1 µs of every POST's body (issue 21).
   */
  private readonly waiting: Due[] = [];
  private readonly timer: DeadlineTimer;

  constructor(now?: () => number) {
    // Neither a stalled body nor a stream's opening keeps the process alive: their sockets do, or not.
    this.timer = new DeadlineTimer((at) => this.expire(at), { keepsAlive: false, now });
  }

  /** Fires `entry` once `entry.at` has passed, unless it is deleted first. */
  add(entry: Due): void {
    if (this.holds(entry)) return;
    entry.slot = this.waiting.length;
    this.waiting.push(entry);
    this.timer.ensure(entry.at);
  }

  delete(entry: Due): void {
    if (!this.holds(entry)) return;
    const slot = entry.slot!;
    const last = this.waiting.pop()!;
    if (last !== entry) {
      this.waiting[slot] = last;
      last.slot = slot;
    }
    entry.slot = undefined;
  }

  get size(): number {
    return this.waiting.length;
  }

  private holds(entry: Due): boolean {
    return entry.slot !== undefined && this.waiting[entry.slot] === entry;
  }

  /** Fires what is due at `now`; the earliest deadline still ahead (an entry fired may have added one). */
  private expire(now: number): number {
    // What is due is taken out first: firing one may add or delete others.
    const due: Due[] = [];
    for (const entry of this.waiting) if (entry.at <= now) due.push(entry);
    for (const entry of due) {
      this.delete(entry);
      entry.fire();
    }
    let next = Number.POSITIVE_INFINITY;
    for (const entry of this.waiting) if (entry.at < next) next = entry.at;
    return next;
  }
}
