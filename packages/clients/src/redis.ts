import type { Logger } from '@tickertape/logger';
import { Redis, type RedisOptions } from 'ioredis';

export interface RedisClientOptions {
  url: string;
  logger: Logger;
  /**
   * BullMQ workers need `null` here (block forever, never fail a command for retries); plain
   * clients keep ioredis' default so a dead Redis surfaces as an error.
   */
  maxRetriesPerRequest?: number | null;
  lazyConnect?: boolean;
  extra?: RedisOptions;
}

export function createRedis(options: RedisClientOptions): Redis {
  const redis = new Redis(options.url, {
    maxRetriesPerRequest:
      options.maxRetriesPerRequest === undefined ? 20 : options.maxRetriesPerRequest,
    lazyConnect: options.lazyConnect ?? false,
    ...options.extra,
  });
  const log = options.logger.child({ component: 'ioredis' });
  // Without a listener, ioredis reports every reconnect attempt as an unhandled error event.
  redis.on('error', (err: Error) => log.warn({ err }, 'redis connection error'));
  return redis;
}
