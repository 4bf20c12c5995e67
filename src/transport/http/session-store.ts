// Where the sessions of a Streamable HTTP endpoint live when several instances serve them: each
// session's record (who opened it, and the protocol's state of it, which this layer does not read),
// with an idle expiry that every request renews. Any instance serves any POST of a session by reading
// its record; a session deleted or expired is gone for all of them. In memory by default (several
// endpoints of one process may share one); transport/redis/ implements it on Redis.

export interface SessionRecord {
  /** Who opened the session, when authorization is on: nobody else may use it. */
  owner?: string;
  /** What the protocol keeps of the session (its negotiated revision, …): opaque here. */
  state: Record<string, unknown>;
}

export interface SessionStore {
  /**
   * Stores a new session, unless `maxSessions` are kept already (then false). Lives for `ttlMs` unless
   * renewed (0: until deleted).
   */
  create(id: string, record: SessionRecord, ttlMs: number, maxSessions: number): Promise<boolean>;
  /** The session's record, renewing its expiry; undefined once it was deleted or expired. */
  get(id: string, ttlMs: number): Promise<SessionRecord | undefined>;
  /** Replaces the protocol's state of a session that exists (nothing if it does not). */
  update(id: string, state: Record<string, unknown>, ttlMs: number): Promise<void>;
  delete(id: string): Promise<void>;
  /** Sessions kept now, on every instance. */
  count(): Promise<number>;
}

export class InMemorySessionStore implements SessionStore {
  private readonly records = new Map<string, { record: SessionRecord; expires: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async create(id: string, record: SessionRecord, ttlMs: number, maxSessions: number): Promise<boolean> {
    this.expire();
    if (this.records.size >= maxSessions) return false;
    this.records.set(id, { record: structuredClone(record), expires: this.deadline(ttlMs) });
    return true;
  }

  async get(id: string, ttlMs: number): Promise<SessionRecord | undefined> {
    const entry = this.live(id);
    if (!entry) return undefined;
    entry.expires = this.deadline(ttlMs);
    // A copy, as a remote store would give: the caller cannot change the stored record by accident.
    return structuredClone(entry.record);
  }

  async update(id: string, state: Record<string, unknown>, ttlMs: number): Promise<void> {
    const entry = this.live(id);
    if (!entry) return;
    entry.record.state = structuredClone(state);
    entry.expires = this.deadline(ttlMs);
  }

  async delete(id: string): Promise<void> {
    this.records.delete(id);
  }

  async count(): Promise<number> {
    this.expire();
    return this.records.size;
  }

  private live(id: string) {
    const entry = this.records.get(id);
    if (entry && entry.expires <= this.now()) {
      this.records.delete(id);
      return undefined;
    }
    return entry;
  }

  private deadline(ttlMs: number): number {
    return ttlMs > 0 ? this.now() + ttlMs : Number.POSITIVE_INFINITY;
  }

  private expire(): void {
    const now = this.now();
    for (const [id, entry] of this.records) if (entry.expires <= now) this.records.delete(id);
  }
}
