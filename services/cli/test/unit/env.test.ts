import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@tickertape/errors';
import { parseCliEnv } from '../../src/env.js';

const stack = {
  KAFKA_BROKERS: '127.0.0.1:19092',
  SCHEMA_REGISTRY_URL: 'http://127.0.0.1:18081/apis/ccompat/v7',
  MONGODB_URI: 'mongodb://127.0.0.1:27117',
  REDIS_URL: 'redis://127.0.0.1:16379',
};

describe('cli env', () => {
  it('parses the stack and defaults', () => {
    expect(parseCliEnv(stack)).toMatchObject({ LOG_LEVEL: 'warn', STARTUP_TIMEOUT_MS: 10_000 });
  });

  it('stops on a malformed MONGODB_URI, naming it', () => {
    expect(() => parseCliEnv({ ...stack, MONGODB_URI: 'mongo://nope' })).toThrow(ConfigError);
    expect(() => parseCliEnv({ ...stack, MONGODB_URI: 'mongo://nope' })).toThrow(/MONGODB_URI/);
  });

  it('reads TLS, SASL and registry credentials, and refuses half of a pair naming the other', () => {
    const secured = {
      ...stack,
      KAFKA_SSL: 'true',
      KAFKA_SASL_MECHANISM: 'PLAIN',
      KAFKA_SASL_USERNAME: 'worker',
      KAFKA_SASL_PASSWORD: 'worker-sasl-password',
      SCHEMA_REGISTRY_USERNAME: 'registry-key',
      SCHEMA_REGISTRY_PASSWORD: 'registry-secret',
    };
    expect(parseCliEnv(secured)).toMatchObject({
      KAFKA_SSL: true,
      KAFKA_SASL_MECHANISM: 'plain',
      SCHEMA_REGISTRY_USERNAME: 'registry-key',
    });
    for (const [unset, named] of [
      ['KAFKA_SASL_PASSWORD', 'KAFKA_SASL_PASSWORD'],
      ['KAFKA_SASL_MECHANISM', 'KAFKA_SASL_MECHANISM'],
      ['SCHEMA_REGISTRY_USERNAME', 'SCHEMA_REGISTRY_USERNAME'],
    ] as const) {
      const parse = () => parseCliEnv({ ...secured, [unset]: '' });
      expect(parse).toThrow(ConfigError);
      expect(parse).toThrow(new RegExp(named));
      expect(parse).not.toThrow(/worker-sasl-password|registry-secret/);
    }
  });
});
