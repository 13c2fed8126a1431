import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@tickertape/errors';
import { DEFAULT_LIMITS } from '@tickertape/query';
import { parseApiEnv } from '../../src/env.js';

const TOKEN = 'a-token-of-24-characters';
const base = {
  API_TOKENS: TOKEN,
  MONGODB_URI: 'mongodb://127.0.0.1:27117',
  KAFKA_BROKERS: '127.0.0.1:19092',
};

function refusal(env: Record<string, string>): ConfigError {
  try {
    parseApiEnv(env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('the environment was accepted');
}

describe('api env', () => {
  it('defaults everything but the tokens and the two addresses', () => {
    expect(parseApiEnv(base)).toEqual({
      API_TOKENS: [TOKEN],
      MONGODB_URI: base.MONGODB_URI,
      MONGODB_DATABASE: 'tickertape',
      KAFKA_BROKERS: ['127.0.0.1:19092'],
      KAFKA_SSL: false,
      KAFKA_SSL_REJECT_UNAUTHORIZED: true,
      TOPIC: 'raw-ticks',
      GROUP_PREFIX: 'tickertape-rollup-',
      LEVELS: ['minute', 'hour', 'day'],
      HTTP_PORT: 9420,
      HOST: '127.0.0.1',
      MAX_DOCUMENTS: DEFAULT_LIMITS.maxDocuments,
      MAX_SERIES: DEFAULT_LIMITS.maxSeries,
      MAX_POINTS: DEFAULT_LIMITS.maxPoints,
      LOG_LEVEL: 'info',
      STARTUP_TIMEOUT_MS: 10_000,
    });
  });

  it('splits tokens and levels on commas, trimming blanks', () => {
    const env = parseApiEnv({
      ...base,
      API_TOKENS: ` ${TOKEN} ,, second-token-0123456789 `,
      LEVELS: 'minute, hour',
      HTTP_PORT: '0',
      MAX_POINTS: '500',
    });
    expect(env.API_TOKENS).toEqual([TOKEN, 'second-token-0123456789']);
    expect(env.LEVELS).toEqual(['minute', 'hour']);
    expect(env.HTTP_PORT).toBe(0);
    expect(env.MAX_POINTS).toBe(500);
  });

  it.each<[string, Record<string, string>, string]>([
    ['tokens missing', { API_TOKENS: '' }, 'API_TOKENS'],
    ['only separators', { API_TOKENS: ' , ' }, 'API_TOKENS'],
    ['an unknown level', { LEVELS: 'minute,week' }, 'LEVELS'],
    ['no level', { LEVELS: ',' }, 'LEVELS'],
    ['a port out of range', { HTTP_PORT: '70000' }, 'HTTP_PORT'],
    ['a zero budget', { MAX_DOCUMENTS: '0' }, 'MAX_DOCUMENTS'],
    ['a fractional limit', { MAX_SERIES: '2.5' }, 'MAX_SERIES'],
    ['a broker without port', { KAFKA_BROKERS: 'kafka' }, 'KAFKA_BROKERS'],
    ['a bad database name', { MONGODB_DATABASE: 'a/b' }, 'MONGODB_DATABASE'],
    ['an unknown log level', { LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
  ])('refuses %s, naming the variable', (_case, over, variable) => {
    expect(refusal({ ...base, ...over }).variables.map((v) => v.split('.')[0])).toEqual([variable]);
  });

  it('reads the Kafka security settings for lag, checked against each other', () => {
    const sasl = {
      KAFKA_SSL: 'true',
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'api',
      KAFKA_SASL_PASSWORD: 'api-sasl-password',
    };
    expect(parseApiEnv({ ...base, ...sasl })).toMatchObject({
      KAFKA_SSL: true,
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
    });
    const err = refusal({ ...base, ...sasl, KAFKA_SASL_USERNAME: '' });
    expect(err.variables).toEqual(['KAFKA_SASL_USERNAME']);
    expect(err.message).not.toContain('api-sasl-password');
  });

  it('names a short token by position and length, never by value', () => {
    const err = refusal({ ...base, API_TOKENS: `${TOKEN},hunter2` });
    expect(err.message).toContain('API_TOKENS: token 2 has 7 characters; each needs at least 16');
    expect(err.message).not.toContain('hunter2');
    expect(err.message).not.toContain(TOKEN);
    expect(JSON.stringify(err.issues)).not.toContain('hunter2');
  });
});
