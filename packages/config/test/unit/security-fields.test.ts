import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@tickertape/errors';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import {
  checkKafkaSecurity,
  checkRegistryAuth,
  kafkaSecurityShape,
  kafkaSecurityVars,
  parseEnv,
  registryAuthShape,
  registryEndpoint,
  stackShape,
} from '../../src/index.js';

const schema = z
  .object({
    SCHEMA_REGISTRY_URL: stackShape.SCHEMA_REGISTRY_URL,
    ...kafkaSecurityShape,
    ...registryAuthShape,
  })
  .check(checkKafkaSecurity, checkRegistryAuth);

const dir = mkdtempSync(join(tmpdir(), 'tt-security-'));
const pem = join(dir, 'ca.pem');
writeFileSync(pem, '-----BEGIN CERTIFICATE-----\n');
const missing = join(dir, 'missing.pem');
const base = { SCHEMA_REGISTRY_URL: 'http://registry:8081' };
const PASSWORD = 'sasl-pass-word-7f3e';

function configErrorOf(source: Record<string, string>): ConfigError {
  try {
    parseEnv(schema, { ...base, ...source });
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('kafka security variables', () => {
  it('default to plaintext without authentication', () => {
    expect(parseEnv(schema, base)).toEqual({
      ...base,
      KAFKA_SSL: false,
      KAFKA_SSL_REJECT_UNAUTHORIZED: true,
    });
  });

  it('accept SASL_SSL with a CA, mutual TLS and any case of mechanism', () => {
    const env = parseEnv(schema, {
      ...base,
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA_FILE: pem,
      KAFKA_SSL_CERT_FILE: pem,
      KAFKA_SSL_KEY_FILE: pem,
      KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
      KAFKA_SASL_USERNAME: 'svc',
      KAFKA_SASL_PASSWORD: PASSWORD,
    });
    expect(env.KAFKA_SASL_MECHANISM).toBe('scram-sha-512');
    expect(env.KAFKA_SSL_CA_FILE).toBe(pem);
  });

  it.each<[string, Record<string, string>, string[]]>([
    [
      'a mechanism without credentials',
      { KAFKA_SASL_MECHANISM: 'plain' },
      ['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD'],
    ],
    [
      'a mechanism without password',
      { KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u' },
      ['KAFKA_SASL_PASSWORD'],
    ],
    [
      'credentials without mechanism',
      { KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: PASSWORD },
      ['KAFKA_SASL_MECHANISM'],
    ],
    [
      'an unknown mechanism',
      { KAFKA_SASL_MECHANISM: 'gssapi', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: PASSWORD },
      ['KAFKA_SASL_MECHANISM'],
    ],
    [
      'a CA file that does not exist',
      { KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: missing },
      ['KAFKA_SSL_CA_FILE'],
    ],
    [
      'a key file that does not exist',
      { KAFKA_SSL: 'true', KAFKA_SSL_CERT_FILE: pem, KAFKA_SSL_KEY_FILE: missing },
      ['KAFKA_SSL_KEY_FILE'],
    ],
    [
      'a certificate without key',
      { KAFKA_SSL: 'true', KAFKA_SSL_CERT_FILE: pem },
      ['KAFKA_SSL_KEY_FILE'],
    ],
    [
      'a key without certificate',
      { KAFKA_SSL: 'true', KAFKA_SSL_KEY_FILE: pem },
      ['KAFKA_SSL_CERT_FILE'],
    ],
    ['a CA file with TLS off', { KAFKA_SSL_CA_FILE: pem }, ['KAFKA_SSL']],
    ['a flag that is not one', { KAFKA_SSL: 'tls' }, ['KAFKA_SSL']],
    [
      'a registry user without password',
      { SCHEMA_REGISTRY_USERNAME: 'key' },
      ['SCHEMA_REGISTRY_PASSWORD'],
    ],
    [
      'a registry password without user',
      { SCHEMA_REGISTRY_PASSWORD: PASSWORD },
      ['SCHEMA_REGISTRY_USERNAME'],
    ],
  ])('refuse %s, naming the variable and never the password', (_case, source, variables) => {
    const err = configErrorOf(source);
    expect(err.variables).toEqual(variables);
    for (const variable of variables) expect(err.message).toContain(variable);
    expect(err.message).not.toContain(PASSWORD);
    expect(JSON.stringify(err.issues)).not.toContain(PASSWORD);
  });

  it('name the unreadable file and why', () => {
    const err = configErrorOf({ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: missing });
    expect(err.message).toContain(`KAFKA_SSL_CA_FILE: cannot read ${missing} (ENOENT)`);
  });

  it('write back as the variables they came from, for child processes', () => {
    const source = {
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA_FILE: pem,
      KAFKA_SASL_MECHANISM: 'PLAIN',
      KAFKA_SASL_USERNAME: 'u',
      KAFKA_SASL_PASSWORD: PASSWORD,
    };
    const vars = kafkaSecurityVars(parseEnv(schema, { ...base, ...source }));
    expect(vars).toEqual({
      ...source,
      KAFKA_SASL_MECHANISM: 'plain',
      KAFKA_SSL_REJECT_UNAUTHORIZED: 'true',
    });
    expect(parseEnv(schema, { ...base, ...vars })).toEqual(
      parseEnv(schema, { ...base, ...source }),
    );
  });
});

describe('registryEndpoint', () => {
  it.each<[Record<string, string>, object]>([
    [{}, { url: base.SCHEMA_REGISTRY_URL }],
    [
      { SCHEMA_REGISTRY_USERNAME: 'key', SCHEMA_REGISTRY_PASSWORD: PASSWORD },
      { url: base.SCHEMA_REGISTRY_URL, username: 'key', password: PASSWORD },
    ],
  ])('%j → %j', (source, endpoint) => {
    expect(registryEndpoint(parseEnv(schema, { ...base, ...source }))).toEqual(endpoint);
  });
});

describe('config errors never repeat a secret of the environment', () => {
  it.each<[string, z.ZodType, Record<string, string>, string]>([
    [
      "the driver's message quoting the whole URI",
      z.object({ MONGODB_URI: stackShape.MONGODB_URI }),
      { MONGODB_URI: 'mongodb://app:mongo-pass-91ab@/ticks' },
      'mongo-pass-91ab',
    ],
    [
      'a percent-encoded password',
      z.object({ MONGODB_URI: stackShape.MONGODB_URI }),
      { MONGODB_URI: 'mongodb://app:p%40ss-word-1@/ticks' },
      'p@ss-word-1',
    ],
    [
      'a secret-named variable echoed by a check',
      z.object({
        SOME_PASSWORD: z.string().regex(/^x/, 'starts with x'),
        OTHER: z.string().refine(() => false, { error: (i) => `bad ${String(i.input)}` }),
      }),
      { SOME_PASSWORD: 'xsecret-value', OTHER: 'xsecret-value' },
      'xsecret-value',
    ],
    [
      "a token before its scope (the API's `<token>:<metrics>`) echoed alone",
      z.object({
        API_TOKENS: z.string(),
        OTHER: z.string().refine(() => false, { error: (i) => `bad ${String(i.input)}` }),
      }),
      { API_TOKENS: 'plain-token-1234,team-token-5678:weather.*', OTHER: 'team-token-5678' },
      'team-token-5678',
    ],
  ])('%s', (_case, anySchema, source, secret) => {
    let message = '';
    try {
      parseEnv(anySchema, source);
    } catch (err) {
      message = err instanceof ConfigError ? `${err.message}${JSON.stringify(err.issues)}` : '';
    }
    expect(message).toContain('[redacted]');
    expect(message).not.toContain(secret);
  });
});
