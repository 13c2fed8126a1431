import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@tickertape/errors';
import { z } from 'zod';
import { durationMs, flag, logLevel, parseEnv, port, stackEnvSchema } from '../../src/index.js';

const good = {
  KAFKA_BROKERS: '127.0.0.1:19092, kafka-2:9092',
  SCHEMA_REGISTRY_URL: 'http://127.0.0.1:18081/apis/ccompat/v7',
  MONGODB_URI: 'mongodb://user:pw@127.0.0.1:27117/ticks?authSource=admin',
  REDIS_URL: 'redis://127.0.0.1:16379',
};

function configErrorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('stackEnvSchema', () => {
  it('parses the four addresses', () => {
    const env = parseEnv(stackEnvSchema, good);
    expect(env.KAFKA_BROKERS).toEqual(['127.0.0.1:19092', 'kafka-2:9092']);
    expect(env.MONGODB_URI).toBe(good.MONGODB_URI);
  });

  it.each([
    ['KAFKA_BROKERS', 'localhost'],
    ['KAFKA_BROKERS', 'host:99999'],
    ['KAFKA_BROKERS', ' , '],
    ['SCHEMA_REGISTRY_URL', 'not a url'],
    ['SCHEMA_REGISTRY_URL', 'ftp://registry:21'],
    ['MONGODB_URI', 'mongodb//127.0.0.1:27017'],
    ['MONGODB_URI', 'postgres://127.0.0.1'],
    ['MONGODB_URI', 'mongodb://'],
    ['REDIS_URL', 'http://127.0.0.1:6379'],
  ])('rejects %s=%j naming the variable', (variable, value) => {
    const err = configErrorOf(() => parseEnv(stackEnvSchema, { ...good, [variable]: value }));
    expect(err.variables).toEqual([variable]);
    expect(err.message).toContain(variable);
  });

  it('reports every missing variable at once, and treats empty as missing', () => {
    const err = configErrorOf(() => parseEnv(stackEnvSchema, { KAFKA_BROKERS: '' }));
    expect(err.variables.sort()).toEqual(
      ['KAFKA_BROKERS', 'MONGODB_URI', 'REDIS_URL', 'SCHEMA_REGISTRY_URL'].sort(),
    );
  });
});

describe('field helpers', () => {
  const schema = z.object({
    PORT: port().default(8080),
    FLUSH_MS: durationMs().default(500),
    SHELLS: flag().default(false),
    LOG_LEVEL: logLevel(),
  });

  it('applies defaults and coercion', () => {
    expect(parseEnv(schema, {})).toEqual({
      PORT: 8080,
      FLUSH_MS: 500,
      SHELLS: false,
      LOG_LEVEL: 'info',
    });
    expect(
      parseEnv(schema, { PORT: '9000', FLUSH_MS: '0', SHELLS: 'yes', LOG_LEVEL: 'debug' }),
    ).toEqual({
      PORT: 9000,
      FLUSH_MS: 0,
      SHELLS: true,
      LOG_LEVEL: 'debug',
    });
  });

  it.each([
    ['PORT', '0'],
    ['PORT', '70000'],
    ['PORT', 'http'],
    ['FLUSH_MS', '-1'],
    ['FLUSH_MS', '1.5'],
    ['SHELLS', 'maybe'],
    ['LOG_LEVEL', 'loud'],
  ])('rejects %s=%j', (variable, value) => {
    expect(configErrorOf(() => parseEnv(schema, { [variable]: value })).variables).toEqual([
      variable,
    ]);
  });
});
