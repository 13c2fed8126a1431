import { describe, expect, it } from '@jest/globals';
import { DEFAULT_RETENTION_MS } from '@tickertape/history';
import { parseSchedulerEnv } from '../../src/env.js';

// Backfill refuses ticks the retention job would drop next: both must start from one set of
// defaults (the CLI's `backfill --retention` reads history's).
describe("the scheduler's retention defaults", () => {
  it("are history's, store by store", () => {
    const env = parseSchedulerEnv({
      KAFKA_BROKERS: '127.0.0.1:19092',
      MONGODB_URI: 'mongodb://127.0.0.1:27117',
      REDIS_URL: 'redis://127.0.0.1:16379',
    });
    expect(DEFAULT_RETENTION_MS).toEqual({
      minute: env.RETENTION_MINUTE_MS,
      hour: env.RETENTION_HOUR_MS,
      day: env.RETENTION_DAY_MS,
      segments: env.RETENTION_SEGMENTS_MS,
    });
  });
});
