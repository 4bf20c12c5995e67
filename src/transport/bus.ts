// How the instances of one server fleet reach each other: named channels carrying strings, and which
// instances are alive. A message for a session whose stream another instance holds, the answer to a
// request another instance sent, a cancellation for a request running elsewhere, a resource update for
// every subscriber: each travels as one publish. In memory by default (several endpoints in one process
// share one bus, as tests and a single machine do); transport/redis/ implements it on Redis pub/sub.

export interface MessageBus {
  /** This instance's name on the bus: unique in the fleet, and what other instances address it by. */
  readonly instanceId: string;
  /** Sends to every current subscriber of the channel, on every instance (this one too). */
  publish(channel: string, message: string): Promise<void>;
  /** Listens to a channel until the returned function is called. Resolves once the listening has begun. */
  subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>;
  /** Whether the instance is still on the bus: false once it left or stopped reporting (a crash). */
  isAlive(instanceId: string): Promise<boolean>;
  /** Leaves the bus: its subscriptions end and other instances see it gone. */
  close(): Promise<void>;
}

/** The channels of one bus, shared by every bus of the same fleet (the process's own, by default). */
export class InMemoryBusHub {
  readonly channels = new Map<string, Set<(message: string) => void>>();
  readonly alive = new Set<string>();
  private counter = 0;

  /** A bus for one more instance of the fleet. */
  join(name = `i${++this.counter}`): InMemoryBus {
    return new InMemoryBus(this, name);
  }
}

export class InMemoryBus implements MessageBus {
  private readonly mine = new Set<[string, (message: string) => void]>();

  constructor(
    private readonly hub: InMemoryBusHub,
    readonly instanceId: string,
  ) {
    hub.alive.add(instanceId);
  }

  async publish(channel: string, message: string): Promise<void> {
    // Delivered on a later turn, as a real bus would: a publisher never runs its subscribers inline.
    const listeners = [...(this.hub.channels.get(channel) ?? [])];
    if (listeners.length > 0) {
      queueMicrotask(() => {
        for (const listener of listeners) listener(message);
      });
    }
  }

  async subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>> {
    let set = this.hub.channels.get(channel);
    if (!set) {
      set = new Set();
      this.hub.channels.set(channel, set);
    }
    set.add(listener);
    const entry: [string, (message: string) => void] = [channel, listener];
    this.mine.add(entry);
    return async () => {
      this.mine.delete(entry);
      const current = this.hub.channels.get(channel);
      current?.delete(listener);
      if (current?.size === 0) this.hub.channels.delete(channel);
    };
  }

  async isAlive(instanceId: string): Promise<boolean> {
    return this.hub.alive.has(instanceId);
  }

  async close(): Promise<void> {
    this.hub.alive.delete(this.instanceId);
    for (const [channel, listener] of this.mine) this.hub.channels.get(channel)?.delete(listener);
    this.mine.clear();
  }
}
