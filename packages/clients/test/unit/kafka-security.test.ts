import { describe, expect, it } from '@jest/globals';
import { checkKafkaSecurity, kafkaSecurityShape, parseEnv } from '@tickertape/config';
import { createLogger } from '@tickertape/logger';
import { Writable } from 'node:stream';
import { z } from 'zod';
import { kafkaSecurity, refusedCredentials } from '../../src/index.js';

const schema = z.object(kafkaSecurityShape).check(checkKafkaSecurity);
const PASSWORD = 'kafka-sasl-secret-42';
// Any readable path passes the env check; the contents come from the table's own reader.
const file = process.execPath;
const readFile = () => Buffer.from('PEM');

describe('kafkaSecurity', () => {
  it.each<[string, Record<string, string>, object]>([
    ['nothing set: plaintext, no SASL', {}, {}],
    ['TLS with the system CAs', { KAFKA_SSL: 'true' }, { ssl: true }],
    [
      'TLS with a private CA',
      { KAFKA_SSL: 'yes', KAFKA_SSL_CA_FILE: file },
      { ssl: { ca: [Buffer.from('PEM')] } },
    ],
    [
      'mutual TLS',
      { KAFKA_SSL: 'true', KAFKA_SSL_CERT_FILE: file, KAFKA_SSL_KEY_FILE: file },
      { ssl: { cert: Buffer.from('PEM'), key: Buffer.from('PEM') } },
    ],
    [
      'TLS accepting any certificate',
      { KAFKA_SSL: 'true', KAFKA_SSL_REJECT_UNAUTHORIZED: 'false' },
      { ssl: { rejectUnauthorized: false } },
    ],
    [
      'SASL/PLAIN in clear text (the local listener)',
      { KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: PASSWORD },
      { sasl: { mechanism: 'plain', username: 'u', password: PASSWORD } },
    ],
    [
      'SASL_SSL with PLAIN (Confluent Cloud)',
      {
        KAFKA_SSL: 'true',
        KAFKA_SASL_MECHANISM: 'PLAIN',
        KAFKA_SASL_USERNAME: 'API-KEY',
        KAFKA_SASL_PASSWORD: PASSWORD,
      },
      { ssl: true, sasl: { mechanism: 'plain', username: 'API-KEY', password: PASSWORD } },
    ],
    [
      'SASL_SSL with SCRAM-SHA-256',
      {
        KAFKA_SSL: 'true',
        KAFKA_SASL_MECHANISM: 'scram-sha-256',
        KAFKA_SASL_USERNAME: 'u',
        KAFKA_SASL_PASSWORD: PASSWORD,
      },
      { ssl: true, sasl: { mechanism: 'scram-sha-256', username: 'u', password: PASSWORD } },
    ],
    [
      'SCRAM-SHA-512 over a private CA',
      {
        KAFKA_SSL: 'true',
        KAFKA_SSL_CA_FILE: file,
        KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
        KAFKA_SASL_USERNAME: 'u',
        KAFKA_SASL_PASSWORD: PASSWORD,
      },
      {
        ssl: { ca: [Buffer.from('PEM')] },
        sasl: { mechanism: 'scram-sha-512', username: 'u', password: PASSWORD },
      },
    ],
  ])('%s', (_case, source, expected) => {
    expect(kafkaSecurity(parseEnv(schema, source), readFile)).toEqual(expected);
  });

  it('is never logged in clear, at the top level or inside another object', () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const security = kafkaSecurity(
      parseEnv(schema, {
        KAFKA_SSL: 'true',
        KAFKA_SSL_KEY_FILE: file,
        KAFKA_SSL_CERT_FILE: file,
        KAFKA_SASL_MECHANISM: 'plain',
        KAFKA_SASL_USERNAME: 'u',
        KAFKA_SASL_PASSWORD: PASSWORD,
      }),
      () => Buffer.from('-----BEGIN PRIVATE KEY----- key-material'),
    );
    const log = createLogger({ name: 't', destination });
    log.info(security, 'top level');
    log.info({ kafka: security }, 'nested');
    log.info({ KAFKA_SASL_PASSWORD: PASSWORD }, 'as a variable');
    const text = lines.join('');
    expect(lines).toHaveLength(3);
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain('key-material');
    expect(text).toContain('[redacted]');
  });
});

describe('refusedCredentials', () => {
  const named = (name: string, message = 'x', extra: object = {}) =>
    Object.assign(new Error(message), { name }, extra);
  it.each<[string, string, Error, boolean]>([
    ['kafkajs SASL refusal', 'KAFKA_BROKERS', named('KafkaJSSASLAuthenticationError'), true],
    ['kafkajs connection error', 'KAFKA_BROKERS', named('KafkaJSConnectionError'), false],
    [
      'wrapped SASL refusal',
      'KAFKA_BROKERS',
      new Error('outer', { cause: named('KafkaJSSASLAuthenticationError') }),
      true,
    ],
    [
      'redis wrong password',
      'REDIS_URL',
      named('ReplyError', 'WRONGPASS invalid username-password pair'),
      true,
    ],
    [
      'redis no password',
      'REDIS_URL',
      named('ReplyError', 'NOAUTH Authentication required.'),
      true,
    ],
    ['redis other reply', 'REDIS_URL', named('ReplyError', 'ERR unknown command'), false],
    [
      'mongo AuthenticationFailed',
      'MONGODB_URI',
      named('MongoServerError', 'Authentication failed.', { code: 18 }),
      true,
    ],
    [
      'mongo other server error',
      'MONGODB_URI',
      named('MongoServerError', 'x', { code: 13 }),
      false,
    ],
    ['registry 401', 'SCHEMA_REGISTRY_URL', named('RegistryAnswer', 'x', { status: 401 }), true],
    ['registry 500', 'SCHEMA_REGISTRY_URL', named('RegistryAnswer', 'x', { status: 500 }), false],
  ])('%s → %s', (_case, variable, err, refused) => {
    expect(refusedCredentials(variable, err) !== undefined).toBe(refused);
  });
});
