// A clock the test moves by hand, replacing the global setTimeout and clearTimeout, and performance.now()
// (the connection's deadlines are read from it), while installed, so that timeouts of a minute or ten are
// tested in microseconds and exactly. Node 20's own mock timers cannot move performance.now().
// `install({ date: true })` moves Date.now() too (from the real time at install), for expiries that must
// hold across processes and so are read from the wall clock.

type Callback = () => void;

class FakeTimer {
  due: number;
  constructor(
    private readonly clock: FakeClock,
    readonly callback: Callback,
    readonly delay: number,
  ) {
    this.due = clock.now + delay;
  }

  refresh(): this {
    this.due = this.clock.now + this.delay;
    this.clock.schedule(this);
    return this;
  }

  private referenced = true;

  ref(): this {
    this.referenced = true;
    return this;
  }

  unref(): this {
    this.referenced = false;
    return this;
  }

  hasRef(): boolean {
    return this.referenced;
  }
}

export class FakeClock {
  now = 0;
  private readonly timers = new Set<FakeTimer>();
  private saved:
    | {
        setTimeout: typeof setTimeout;
        clearTimeout: typeof clearTimeout;
        now: PropertyDescriptor | undefined;
        dateNow: typeof Date.now;
      }
    | undefined;

  install(options: { date?: boolean } = {}): this {
    this.saved = {
      setTimeout: globalThis.setTimeout,
      clearTimeout: globalThis.clearTimeout,
      now: Object.getOwnPropertyDescriptor(performance, 'now'),
      dateNow: Date.now,
    };
    if (options.date) {
      const epoch = Date.now();
      Date.now = () => epoch + this.now;
    }
    const fakeSet = (callback: Callback, delay = 0) => {
      const timer = new FakeTimer(this, callback, Math.max(0, delay));
      this.schedule(timer);
      return timer;
    };
    const fakeClear = (timer: unknown) => {
      if (timer instanceof FakeTimer) this.timers.delete(timer);
    };
    globalThis.setTimeout = fakeSet as unknown as typeof setTimeout;
    globalThis.clearTimeout = fakeClear as unknown as typeof clearTimeout;
    Object.defineProperty(performance, 'now', { value: () => this.now, configurable: true, writable: true });
    return this;
  }

  uninstall(): void {
    if (!this.saved) return;
    globalThis.setTimeout = this.saved.setTimeout;
    globalThis.clearTimeout = this.saved.clearTimeout;
    Date.now = this.saved.dateNow;
    if (this.saved.now) Object.defineProperty(performance, 'now', this.saved.now);
    else delete (performance as { now?: unknown }).now;
    this.saved = undefined;
    this.timers.clear();
  }

  schedule(timer: FakeTimer): void {
    this.timers.add(timer);
  }

  /** Timers still waiting to fire. */
  get pending(): number {
    return this.timers.size;
  }

  /** Timers still waiting to fire that would keep a real process alive (not unref()'d). */
  get referenced(): number {
    let count = 0;
    for (const timer of this.timers) if (timer.hasRef()) count++;
    return count;
  }

  /**
   * Moves time forward by `ms`, firing every timer that falls due on the way, in order, and letting the
   * promises each one settles run before the next.
   */
  async advance(ms: number): Promise<void> {
    const target = this.now + ms;
    for (;;) {
      let next: FakeTimer | undefined;
      for (const timer of this.timers)
        if (timer.due <= target && (!next || timer.due < next.due)) next = timer;
      if (!next) break;
      this.timers.delete(next);
      this.now = next.due;
      next.callback();
      await settle();
    }
    this.now = target;
    await settle();
  }
}

/** Lets every queued microtask and the in-memory transport's deliveries run (setImmediate is not faked). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
