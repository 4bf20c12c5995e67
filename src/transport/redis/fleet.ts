// A fleet's shared parts on one Redis: the event store, the session store and the bus, on one
// connection pair. Imported only when a fleet is configured, so that node-redis is loaded only then.

import type { MessageBus } from '../bus.js';
import type { EventStore } from '../http/event-store.js';
import type { SessionStore } from '../http/session-store.js';
import { RedisBus, type RedisBusOptions } from './bus.js';
import { connectRedis, type RedisConnectOptions } from './connect.js';
import { RedisEventStore, type RedisEventStoreOptions } from './event-store.js';

export interface RedisFleetOptions extends RedisConnectOptions, RedisBusOptions {
  events?: RedisEventStoreOptions;
}

export interface RedisFleet {
  eventStore: EventStore;
  sessions: SessionStore;
  bus: MessageBus;
  close(): Promise<void>;
}

export async function redisFleet(url: string, options: RedisFleetOptions = {}): Promise<RedisFleet> {
  const redis = await connectRedis(url, options);
  const { RedisSessionStore } = await import('./session-store.js');
  const bus = new RedisBus(redis, options);
  return {
    eventStore: new RedisEventStore(redis, { prefix: options.prefix, ...options.events }),
    sessions: new RedisSessionStore(redis, options),
    bus,
    close: async () => {
      await bus.close();
      await redis.close();
    },
  };
}
