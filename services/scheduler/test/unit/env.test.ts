import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@tickertape/errors';
import { DEFAULT_RETENTION_MS } from '@tickertape/history';
import { parseSchedulerEnv } from '../../src/env.js';

const base = {
  KAFKA_BROKERS: '127.0.0.1:19092',
  MONGODB_URI: 'mongodb://127.0.0.1:27117',
  REDIS_URL: 'redis://127.0.0.1:16379',
};

describe('scheduler env', () => {
  it('defaults retention per level and a grace equal to the lateness bound', () => {
    const env = parseSchedulerEnv(base);
    expect(env.RETENTION_MINUTE_MS).toBe(7 * 86_400_000);
    expect(env.RETENTION_HOUR_MS).toBe(90 * 86_400_000);
    expect(env.FINALITY_GRACE_MS).toBe(env.MAX_LATENESS_MS);
    expect(env.RETENTION_DRY_RUN).toBe(false);
  });

  it('has the retention defaults a backfill assumes (it must not write what retention drops)', () => {
    const env = parseSchedulerEnv(base);
    expect(DEFAULT_RETENTION_MS).toEqual({
      minute: env.RETENTION_MINUTE_MS,
      hour: env.RETENTION_HOUR_MS,
      day: env.RETENTION_DAY_MS,
      segments: env.RETENTION_SEGMENTS_MS,
    });
  });

  it('keeps raw segments 7 days by default, and reads RETENTION_SEGMENTS_MS', () => {
    expect(parseSchedulerEnv(base).RETENTION_SEGMENTS_MS).toBe(7 * 86_400_000);
    expect(
      parseSchedulerEnv({ ...base, RETENTION_SEGMENTS_MS: '86400000' }).RETENTION_SEGMENTS_MS,
    ).toBe(86_400_000);
    expect(() => parseSchedulerEnv({ ...base, RETENTION_SEGMENTS_MS: '-1' })).toThrow(
      /RETENTION_SEGMENTS_MS/,
    );
  });

  it.each([
    ['a Redis password', 'redis://:pw-redis-1@cache:6379'],
    ['a Redis 6 ACL user over TLS', 'rediss://ticker:pw-redis-1@cache.example.com:6380/0'],
  ])('takes credentials in the URLs: %s', (_case, url) => {
    const mongo = 'mongodb+srv://app:pw-mongo-1@cluster0.ab1cd.mongodb.net/?retryWrites=true';
    expect(parseSchedulerEnv({ ...base, MONGODB_URI: mongo, REDIS_URL: url })).toMatchObject({
      MONGODB_URI: mongo,
      REDIS_URL: url,
    });
  });

  it('reads the level groups finality waits for, and names a bad entry', () => {
    expect(parseSchedulerEnv(base).FINALITY_GROUPS).toEqual({
      minute: 'tickertape-rollup-minute',
      hour: 'tickertape-rollup-hour',
      day: 'tickertape-rollup-day',
    });
    expect(parseSchedulerEnv({ ...base, FINALITY_GROUPS: 'hour=h2' }).FINALITY_GROUPS.hour).toBe(
      'h2',
    );
    expect(() => parseSchedulerEnv({ ...base, FINALITY_GROUPS: 'week=w' })).toThrow(
      /FINALITY_GROUPS/,
    );
    expect(() =>
      parseSchedulerEnv({ MONGODB_URI: base.MONGODB_URI, REDIS_URL: base.REDIS_URL }),
    ).toThrow(/KAFKA_BROKERS/);
  });

  it('refuses a finality grace shorter than the lateness bound, naming FINALITY_GRACE_MS', () => {
    const parse = () =>
      parseSchedulerEnv({ ...base, MAX_LATENESS_MS: '3600000', FINALITY_GRACE_MS: '60000' });
    expect(parse).toThrow(ConfigError);
    expect(parse).toThrow(/FINALITY_GRACE_MS/);
  });
});
