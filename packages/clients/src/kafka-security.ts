import type { KafkaSecurityEnv } from '@tickertape/config';
import type { KafkaConfig, SASLOptions } from 'kafkajs';
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';

/** What createKafka passes through to kafkajs for a secured cluster. */
export interface KafkaSecurity {
  ssl?: KafkaConfig['ssl'];
  sasl?: SASLOptions;
}

export type ReadFile = (path: string) => Buffer;

/**
 * The kafkajs `ssl` and `sasl` options for the parsed KAFKA_SSL* / KAFKA_SASL_* variables.
 * `readFile` is the only effect, injected so the mapping is tested by table; the env check has
 * already made sure every file is readable. `ssl: true` (the system's CAs) unless a setting
 * needs the object form.
 */
export function kafkaSecurity(
  env: KafkaSecurityEnv,
  readFile: ReadFile = readFileSync,
): KafkaSecurity {
  const security: KafkaSecurity = {};
  if (env.KAFKA_SSL) {
    const tls: ConnectionOptions = {};
    if (!env.KAFKA_SSL_REJECT_UNAUTHORIZED) tls.rejectUnauthorized = false;
    if (env.KAFKA_SSL_CA_FILE !== undefined) tls.ca = [readFile(env.KAFKA_SSL_CA_FILE)];
    if (env.KAFKA_SSL_CERT_FILE !== undefined) tls.cert = readFile(env.KAFKA_SSL_CERT_FILE);
    if (env.KAFKA_SSL_KEY_FILE !== undefined) tls.key = readFile(env.KAFKA_SSL_KEY_FILE);
    security.ssl = Object.keys(tls).length === 0 ? true : tls;
  }
  if (env.KAFKA_SASL_MECHANISM !== undefined) {
    // The env check guarantees both; `?? ''` only satisfies the types.
    const username = env.KAFKA_SASL_USERNAME ?? '';
    const password = env.KAFKA_SASL_PASSWORD ?? '';
    switch (env.KAFKA_SASL_MECHANISM) {
      case 'plain':
        security.sasl = { mechanism: 'plain', username, password };
        break;
      case 'scram-sha-256':
        security.sasl = { mechanism: 'scram-sha-256', username, password };
        break;
      case 'scram-sha-512':
        security.sasl = { mechanism: 'scram-sha-512', username, password };
        break;
    }
  }
  return security;
}
