import type { Level } from '@tickertape/buckets';
import { consumerLag } from '@tickertape/clients';
import { withDeadline } from '@tickertape/errors';
import type { Logger } from '@tickertape/logger';
import type { Admin } from 'kafkajs';

/** Records a level's consumer group has not committed, or null when that is not known now. */
export type LagSource = (level: Level) => Promise<number | null>;

export interface KafkaLagOptions {
  admin: Admin;
  topic: string;
  /** Group ids are `<groupPrefix><level>`, as the rollup workers name theirs. */
  groupPrefix: string;
  logger: Logger;
  /** How long one answer may take before it counts as unknown. */
  timeoutMs?: number;
  /** How long an answer (or a failure) is reused. */
  cacheMs?: number;
  now?: () => number;
}

/**
 * Consumer lag per level through one Kafka admin client, connected on first use and again after
 * a failure. Lag is an extra on /status and /levels, never a reason to fail or stall a read: an
 * answer that takes longer than `timeoutMs` is null, and answers (failures included) are cached
 * for `cacheMs` so a dashboard polling a dead Kafka waits once per period, not per request.
 */
export function kafkaLagSource(options: KafkaLagOptions): {
  lag: LagSource;
  close(): Promise<void>;
} {
  const { admin, topic, groupPrefix, logger } = options;
  const timeoutMs = options.timeoutMs ?? 2000;
  const cacheMs = options.cacheMs ?? 5000;
  const now = options.now ?? Date.now;
  let connected: Promise<void> | undefined;
  let failing = false;
  const cache = new Map<Level, { at: number; value: Promise<number | null> }>();

  const connect = () => {
    connected ??= admin.connect().catch((err: unknown) => {
      connected = undefined;
      throw err;
    });
    return connected;
  };

  const fetchLag = async (level: Level): Promise<number | null> => {
    try {
      const { total } = await withDeadline(timeoutMs, `consumer lag of ${level}`, async () => {
        await connect();
        return consumerLag(admin, `${groupPrefix}${level}`, topic);
      });
      if (failing) logger.info('consumer lag readable again');
      failing = false;
      return total;
    } catch (err) {
      // One line when lag becomes unknown, not one per request while Kafka stays away.
      if (!failing) logger.warn({ err, topic }, 'consumer lag unknown; reporting null');
      failing = true;
      return null;
    }
  };

  return {
    lag(level) {
      const hit = cache.get(level);
      if (hit && now() - hit.at < cacheMs) return hit.value;
      const value = fetchLag(level);
      cache.set(level, { at: now(), value });
      return value;
    },
    async close() {
      await admin.disconnect().catch(() => undefined);
    },
  };
}
