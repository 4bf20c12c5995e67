// The fleet's bus on Redis pub/sub. Each instance says it is alive with a key that expires unless it is
// renewed: an instance killed outright stops renewing it, and the others see it gone within `aliveMs`.

import type { MessageBus } from '../bus.js';
import { nodeCrypto } from '../platform/builtins.js';
import type { RedisConnection } from './connect.js';

export interface RedisBusOptions {
  /** How long an instance that stopped renewing its key is still taken for alive, in ms (3000). */
  aliveMs?: number;
  /** Prefix of the keys (`mcpwire:`). */
  prefix?: string;
}

export class RedisBus implements MessageBus {
  readonly instanceId = nodeCrypto().randomBytes(6).toString('hex');
  private readonly heartbeat: ReturnType<typeof setInterval>;
  private readonly prefix: string;
  private readonly aliveMs: number;

  constructor(
    private readonly redis: RedisConnection,
    options: RedisBusOptions = {},
  ) {
    this.prefix = options.prefix ?? 'mcpwire:';
    this.aliveMs = options.aliveMs ?? 3000;
    const beat = () =>
      void this.redis
        .command(['SET', this.aliveKey(this.instanceId), '1', 'PX', String(this.aliveMs)])
        .catch(() => undefined);
    beat();
    this.heartbeat = setInterval(beat, Math.max(50, Math.floor(this.aliveMs / 3)));
    this.heartbeat.unref();
  }

  private aliveKey(id: string): string {
    return `${this.prefix}alive:${id}`;
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.redis.publish(channel, message);
  }

  async subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>> {
    await this.redis.subscribe(channel, listener);
    return () => this.redis.unsubscribe(channel, listener);
  }

  async isAlive(instanceId: string): Promise<boolean> {
    return Number(await this.redis.command(['EXISTS', this.aliveKey(instanceId)])) === 1;
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    await this.redis.command(['DEL', this.aliveKey(this.instanceId)]).catch(() => undefined);
  }
}
