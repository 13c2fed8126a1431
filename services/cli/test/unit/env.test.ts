import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@tickertape/errors';
import { parseCliEnv, requireStack } from '../../src/env.js';
import { logFormatFor, type LogFormat } from '../../src/log-output.js';

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

  it('takes LOG_FORMAT pretty or json, and leaves it unset for the terminal to decide', () => {
    expect(parseCliEnv(stack).LOG_FORMAT).toBeUndefined();
    expect(parseCliEnv({ ...stack, LOG_FORMAT: 'json' }).LOG_FORMAT).toBe('json');
    expect(parseCliEnv({ ...stack, LOG_FORMAT: 'pretty' }).LOG_FORMAT).toBe('pretty');
    expect(() => parseCliEnv({ ...stack, LOG_FORMAT: 'yaml' })).toThrow(/LOG_FORMAT/);
  });

  it.each<[LogFormat | undefined, boolean, LogFormat]>([
    [undefined, true, 'pretty'],
    [undefined, false, 'json'],
    ['json', true, 'json'],
    ['pretty', false, 'pretty'],
  ])('writes LOG_FORMAT=%p with stderr a terminal: %p as %p', (format, terminal, chosen) => {
    expect(logFormatFor(format, terminal)).toBe(chosen);
  });

  it('stops on a malformed MONGODB_URI, naming it', () => {
    expect(() => parseCliEnv({ ...stack, MONGODB_URI: 'mongo://nope' })).toThrow(ConfigError);
    expect(() => parseCliEnv({ ...stack, MONGODB_URI: 'mongo://nope' })).toThrow(/MONGODB_URI/);
  });

  it('checks the Kafka and registry credentials (the rules: packages/config)', () => {
    const secured = { ...stack, KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'cli' };
    expect(() => parseCliEnv(secured)).toThrow(/KAFKA_SASL_PASSWORD/);
    expect(parseCliEnv({ ...secured, KAFKA_SASL_PASSWORD: 'pw' }).KAFKA_SASL_MECHANISM).toBe(
      'plain',
    );
    expect(() => parseCliEnv({ ...stack, SCHEMA_REGISTRY_PASSWORD: 'pw' })).toThrow(
      /SCHEMA_REGISTRY_USERNAME/,
    );
  });

  it('starts with MONGODB_URI alone; a command needing more names what is missing', () => {
    const env = parseCliEnv({ MONGODB_URI: stack.MONGODB_URI });
    expect(requireStack(env, 'MONGODB_URI').MONGODB_URI).toBe(stack.MONGODB_URI);
    expect(() => requireStack(env, 'KAFKA_BROKERS', 'SCHEMA_REGISTRY_URL')).toThrow(
      /KAFKA_BROKERS: is required by this command \(unset\)\n {2}SCHEMA_REGISTRY_URL/,
    );
    expect(() => parseCliEnv({ KAFKA_BROKERS: 'not a broker list!' })).toThrow(/KAFKA_BROKERS/);
    expect(() => requireStack(parseCliEnv({}), 'MONGODB_URI')).toThrow(ConfigError);
  });
});
