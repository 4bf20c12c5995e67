// The events of SSE streams on Redis Streams, so that a client resumes with Last-Event-ID on any
// instance of a fleet. One Redis stream per SSE stream, trimmed to a bound and expiring when left alone.

import type { JsonRpcMessage } from '../../jsonrpc/messages.js';
import type { EventStore } from '../http/event-store.js';
import type { RedisConnection } from './connect.js';

export interface RedisEventStoreOptions {
  /** Events kept per stream, about (1000; Redis trims in whole nodes). */
  maxEventsPerStream?: number;
  /** A stream no event was added to for this long is dropped, in ms (10 minutes). */
  ttlMs?: number;
  /** Prefix of the keys (`mcpwire:`). */
  prefix?: string;
}

export class RedisEventStore implements EventStore {
  constructor(
    private readonly redis: RedisConnection,
    private readonly options: RedisEventStoreOptions = {},
  ) {}

  private key(streamId: string): string {
    return `${this.options.prefix ?? 'mcpwire:'}events:${streamId}`;
  }

  async storeEvent(streamId: string, message: JsonRpcMessage | undefined): Promise<string> {
    const key = this.key(streamId);
    const max = String(this.options.maxEventsPerStream ?? 1000);
    // Both commands leave in the same write: one round trip.
    const [entry] = await Promise.all([
      this.redis.command(['XADD', key, 'MAXLEN', '~', max, '*', 'm', message ? JSON.stringify(message) : '']),
      this.redis.command(['PEXPIRE', key, String(this.options.ttlMs ?? 600_000)]),
    ]);
    return `${streamId}|${String(entry)}`;
  }

  async streamOf(eventId: string): Promise<string | undefined> {
    const bar = eventId.lastIndexOf('|');
    if (bar === -1) return undefined;
    const streamId = eventId.slice(0, bar);
    const exists = await this.redis.command(['EXISTS', this.key(streamId)]);
    return Number(exists) === 1 ? streamId : undefined;
  }

  async replayAfter(
    eventId: string,
    send: (eventId: string, message: JsonRpcMessage) => void,
  ): Promise<void> {
    const bar = eventId.lastIndexOf('|');
    if (bar === -1) return;
    const streamId = eventId.slice(0, bar);
    const entries = (await this.redis.command([
      'XRANGE',
      this.key(streamId),
      `(${eventId.slice(bar + 1)}`,
      '+',
    ])) as Array<[string, string[]]>;
    for (const [entry, fields] of entries) {
      const data = fields[1];
      if (data) send(`${streamId}|${entry}`, JSON.parse(data) as JsonRpcMessage);
    }
  }

  async dropStream(streamId: string): Promise<void> {
    await this.redis.command(['DEL', this.key(streamId)]);
  }
}
