// One connection to Redis with node-redis, loaded only when a fleet is configured. Commands fail at
// once while Redis is unreachable (no offline queue: a request must fail fast, never wait for Redis to
// come back), and the connection is made again by itself, with a growing delay, until it does.

import { McpwireError } from '../../jsonrpc/local-errors.js';

/** The few things mcpwire asks of a Redis connection. */
export interface RedisConnection {
  /** Sends one command; its reply as node-redis gives it. */
  command(args: string[]): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  unsubscribe(channel: string, listener: (message: string) => void): Promise<void>;
  publish(channel: string, message: string): Promise<void>;
  close(): Promise<void>;
}

export interface RedisConnectOptions {
  /** How long the first connection may take before serving is refused, in ms (5000). */
  connectTimeout?: number;
}

export async function connectRedis(url: string, options: RedisConnectOptions = {}): Promise<RedisConnection> {
  const { createClient } = await import('redis');
  const settings = {
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: options.connectTimeout ?? 5000,
      reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2000),
    },
  };
  const client = createClient(settings);
  const subscriber = createClient(settings);
  // node-redis reports every failed reconnect as an 'error' event; unheard, one would end the process.
  client.on('error', () => {});
  subscriber.on('error', () => {});
  const limit = options.connectTimeout ?? 5000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      Promise.all([client.connect(), subscriber.connect()]),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${limit} ms`)), limit);
      }),
    ]);
  } catch (error) {
    await Promise.allSettled([client.destroy(), subscriber.destroy()]);
    throw new McpwireError(
      'FLEET_UNAVAILABLE',
      `cannot reach Redis at ${url.replace(/\/\/[^@/]*@/, '//***@')}: ${(error as Error).message}; start it, or check the URL`,
    );
  } finally {
    clearTimeout(timer);
  }
  return {
    command: (args) => client.sendCommand(args),
    subscribe: (channel, listener) => subscriber.subscribe(channel, listener),
    unsubscribe: (channel, listener) => subscriber.unsubscribe(channel, listener),
    publish: async (channel, message) => {
      await client.publish(channel, message);
    },
    close: async () => {
      await Promise.allSettled([client.close(), subscriber.close()]);
    },
  };
}
