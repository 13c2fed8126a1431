import {
  checkSecurity,
  kafkaShape,
  loadEnv,
  logLevel,
  mongoDatabase,
  parseEnv,
  positiveInt,
  stackShape,
  type EnvSource,
} from '@tickertape/config';
import { LEVELS } from '@tickertape/buckets';
import { DEFAULT_LIMITS } from '@tickertape/query';
import { ROLLUP_GROUP_PREFIX, TICK_TOPIC } from '@tickertape/topology';
import { z } from 'zod';

/** Shorter tokens can be guessed; 16 characters of a random alphabet is the floor we accept. */
export const MIN_TOKEN_LENGTH = 16;

const commaList = (text: string) =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');

/**
 * Bearer tokens, comma separated. Issues name the token by position, never by value: a config
 * error is printed and logged, and a token that is merely too short is still a secret.
 */
const apiTokens = () =>
  z
    .string()
    .transform(commaList)
    .check((ctx) => {
      if (ctx.value.length === 0)
        ctx.issues.push({
          code: 'custom',
          input: '[redacted]',
          message: 'needs at least one token',
        });
      ctx.value.forEach((token, i) => {
        if (token.length < MIN_TOKEN_LENGTH)
          ctx.issues.push({
            code: 'custom',
            input: '[redacted]',
            message: `token ${i + 1} has ${token.length} characters; each needs at least ${MIN_TOKEN_LENGTH}`,
          });
      });
    });

/** The API's whole configuration, parsed once at start. */
export const apiEnvSchema = z
  .object({
    /** Bearer tokens accepted on /api/*, comma separated, each at least 16 characters. Never logged. */
    API_TOKENS: apiTokens(),
    MONGODB_URI: stackShape.MONGODB_URI,
    /** Database holding the rollup partitions (the workers' MONGODB_DATABASE). */
    MONGODB_DATABASE: mongoDatabase().default('tickertape'),
    /**
     * Only for consumer lag per level. Kafka being down never stops reads: lag is then reported as
     * null, so the service does not probe Kafka at start.
     */
    /** With KAFKA_SSL* and KAFKA_SASL_* for TLS and SASL (docs/security.md). */
    ...kafkaShape,
    /** The topic the rollup workers consume, and their group ids: `<GROUP_PREFIX><level>`. */
    TOPIC: z.string().min(1).default(TICK_TOPIC),
    GROUP_PREFIX: z.string().min(1).default(ROLLUP_GROUP_PREFIX),
    /** Levels whose workers run, comma separated; reads use only these. */
    LEVELS: z
      .string()
      .default(LEVELS.join(','))
      .transform(commaList)
      .pipe(z.array(z.enum(LEVELS)).min(1, 'needs at least one level')),
    HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(9420),
    /** Loopback by default: exposing the API is a deliberate choice. */
    HOST: z.string().min(1).default('127.0.0.1'),
    /** The reader's limits: what one request may cost (see @tickertape/query limits.ts). */
    MAX_DOCUMENTS: positiveInt().default(DEFAULT_LIMITS.maxDocuments),
    MAX_SERIES: positiveInt().default(DEFAULT_LIMITS.maxSeries),
    MAX_POINTS: positiveInt().default(DEFAULT_LIMITS.maxPoints),
    LOG_LEVEL: logLevel(),
    STARTUP_TIMEOUT_MS: positiveInt().default(10_000),
  })
  .check(checkSecurity);

export type ApiEnv = z.output<typeof apiEnvSchema>;

export function parseApiEnv(source: EnvSource): ApiEnv {
  return parseEnv(apiEnvSchema, source);
}

/** The process's own environment: main's one read of it. */
export function loadApiEnv(): ApiEnv {
  return loadEnv(apiEnvSchema);
}
