import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@tickertape/errors';
import { DEFAULT_RETENTION_MS } from '@tickertape/history';
import { parseSchedulerEnv } from '../../src/env.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const base = {
  KAFKA_BROKERS: '127.0.0.1:19092',
  MONGODB_URI: 'mongodb://127.0.0.1:27117',
  REDIS_URL: 'redis://127.0.0.1:16379',
};

describe('scheduler env', () => {
  it('defaults retention per level and a grace equal to the lateness bound', () => {
    const env = parseSchedulerEnv(base);
    expect(env.RETENTION_MS).toEqual({
      minute: 7 * 86_400_000,
      hour: 90 * 86_400_000,
      day: 5 * 365 * 86_400_000,
    });
    expect(env.FINALITY_GRACE_MS).toBe(env.MAX_LATENESS_MS);
    expect(env.RETENTION_DRY_RUN).toBe(false);
  });

  it.each([
    [
      'RETENTION per level, the rest by default',
      { RETENTION: 'minute=3d, hour=36h' },
      [3 * DAY, 36 * HOUR, 5 * 365 * DAY],
    ],
    [
      'units down to ms, bare numbers in ms',
      { RETENTION: 'minute=90m,hour=3600000,day=500ms' },
      [90 * MINUTE, HOUR, 500],
    ],
    [
      'the older RETENTION_<LEVEL>_MS',
      { RETENTION_HOUR_MS: String(2 * DAY) },
      [7 * DAY, 2 * DAY, 5 * 365 * DAY],
    ],
    [
      'both forms for different levels',
      { RETENTION: 'day=400d', RETENTION_MINUTE_MS: String(DAY) },
      [DAY, 90 * DAY, 400 * DAY],
    ],
  ])('reads retention: %s', (_case, vars, [minute, hour, day]) => {
    expect(parseSchedulerEnv({ ...base, ...vars }).RETENTION_MS).toEqual({ minute, hour, day });
  });

  it.each([
    ['an unknown level', { RETENTION: 'week=7d' }, /RETENTION.*week=7d/],
    ['a duration without a number', { RETENTION: 'minute=d' }, /RETENTION.*minute=d/],
    ['a fraction', { RETENTION: 'minute=1.5d' }, /RETENTION/],
    [
      'one level both ways',
      { RETENTION: 'hour=1d', RETENTION_HOUR_MS: '1000' },
      /RETENTION_HOUR_MS.*RETENTION sets hour/,
    ],
  ])('refuses retention: %s, naming the variable', (_case, vars, message) => {
    expect(() => parseSchedulerEnv({ ...base, ...vars })).toThrow(message);
  });

  it('has the retention defaults a backfill assumes (it must not write what retention drops)', () => {
    const env = parseSchedulerEnv(base);
    expect(DEFAULT_RETENTION_MS).toEqual({
      ...env.RETENTION_MS,
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
