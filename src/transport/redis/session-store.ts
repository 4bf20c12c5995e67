// The sessions of a fleet on Redis: one hash per session (its owner and the protocol's state), expiring
// when idle, and a sorted set of every session by expiry time, which bounds their number in all.

import type { SessionRecord, SessionStore } from '../http/session-store.js';
import type { RedisConnection } from './connect.js';

// Drops the expired entries of the index, refuses past the cap, then stores the session: in one script,
// so that two instances cannot both take the last place.
const CREATE = `
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], 'owner', ARGV[4], 'state', ARGV[5])
if tonumber(ARGV[3]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
redis.call('ZADD', KEYS[2], ARGV[6], ARGV[7])
return 1`;

// Only a session that still exists is updated: a late write must not bring back a deleted one.
const UPDATE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[1])
if tonumber(ARGV[2]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1`;

export interface RedisSessionStoreOptions {
  /** Prefix of the keys (`mcpwire:`). */
  prefix?: string;
}

export class RedisSessionStore implements SessionStore {
  private readonly prefix: string;

  constructor(
    private readonly redis: RedisConnection,
    options: RedisSessionStoreOptions = {},
  ) {
    this.prefix = options.prefix ?? 'mcpwire:';
  }

  private key(id: string): string {
    return `${this.prefix}session:${id}`;
  }

  private get index(): string {
    return `${this.prefix}sessions`;
  }

  private expiry(ttlMs: number): string {
    return ttlMs > 0 ? String(Date.now() + ttlMs) : '+inf';
  }

  async create(id: string, record: SessionRecord, ttlMs: number, maxSessions: number): Promise<boolean> {
    const created = await this.redis.command([
      'EVAL',
      CREATE,
      '2',
      this.key(id),
      this.index,
      String(Date.now()),
      String(maxSessions),
      String(ttlMs),
      record.owner ?? '',
      JSON.stringify(record.state ?? {}),
      this.expiry(ttlMs),
      id,
    ]);
    return Number(created) === 1;
  }

  async get(id: string, ttlMs: number): Promise<SessionRecord | undefined> {
    // Read and renew in the same write: one round trip.
    const [fields] = await Promise.all([
      this.redis.command(['HGETALL', this.key(id)]),
      ttlMs > 0 ? this.redis.command(['PEXPIRE', this.key(id), String(ttlMs)]) : undefined,
      this.redis.command(['ZADD', this.index, 'XX', this.expiry(ttlMs), id]),
    ]);
    // node-redis gives a hash as pairs in an array or as an object, depending on the protocol version.
    const map = new Map<string, string>();
    if (Array.isArray(fields)) {
      for (let i = 0; i + 1 < fields.length; i += 2) map.set(String(fields[i]), String(fields[i + 1]));
    } else if (fields && typeof fields === 'object') {
      for (const [key, value] of Object.entries(fields)) map.set(key, String(value));
    }
    if (map.size === 0) return undefined;
    const owner = map.get('owner');
    return {
      owner: owner === '' ? undefined : owner,
      state: JSON.parse(map.get('state') ?? '{}') as Record<string, unknown>,
    };
  }

  async update(id: string, state: Record<string, unknown>, ttlMs: number): Promise<void> {
    await this.redis.command(['EVAL', UPDATE, '1', this.key(id), JSON.stringify(state), String(ttlMs)]);
  }

  async delete(id: string): Promise<void> {
    await Promise.all([
      this.redis.command(['DEL', this.key(id)]),
      this.redis.command(['ZREM', this.index, id]),
    ]);
  }

  async count(): Promise<number> {
    const [, count] = await Promise.all([
      this.redis.command(['ZREMRANGEBYSCORE', this.index, '-inf', String(Date.now())]),
      this.redis.command(['ZCARD', this.index]),
    ]);
    return Number(count);
  }
}
