import {
  checkSecurity,
  kafkaSecurityShape,
  loadEnv,
  logLevel,
  parseEnv,
  registryAuthShape,
  stackShape,
  type EnvSource,
  type StackEnv,
} from '@tickertape/config';
import { ConfigError } from '@tickertape/errors';
import { z } from 'zod';
import { LOG_FORMATS } from './log-output.js';

/**
 * The stack's addresses, each checked when set but required only by the commands that connect
 * to it (`requireStack`): `query` and `levels` read the database alone, and must start without
 * Kafka, registry or Redis addresses they never use. The CLI never talks to Redis.
 */
const stackAddresses = {
  KAFKA_BROKERS: stackShape.KAFKA_BROKERS.optional(),
  SCHEMA_REGISTRY_URL: stackShape.SCHEMA_REGISTRY_URL.optional(),
  MONGODB_URI: stackShape.MONGODB_URI.optional(),
};

/** Everything the `tickertape` command reads from the environment, checked once at start. */
export const cliEnvSchema = z
  .object({
    ...stackAddresses,
    /** TLS and SASL to the brokers, basic auth to the registry (docs/security.md). */
    ...kafkaSecurityShape,
    ...registryAuthShape,
    /** Log level of the diagnostic lines written to stderr. */
    LOG_LEVEL: logLevel().default('warn'),
    /**
     * How those lines look: `pretty`, one human line each (time, level, message, fields), or
     * `json`, one JSON object each as the services write them. Unset: pretty when stderr is a
     * terminal, json when it is a pipe or a file, so scripts and log collectors still parse it.
     */
    LOG_FORMAT: z.enum(LOG_FORMATS).optional(),
    /** How long a start waits for each dependency before naming it and giving up. */
    STARTUP_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  })
  .check(checkSecurity);

export type CliEnv = z.output<typeof cliEnvSchema>;

/** A stack address the CLI may need: the database, the brokers, the registry. */
export type StackVariable = keyof typeof stackAddresses;

/**
 * `env` with `names` set, or one ConfigError naming each missing one: called by a command when it
 * is about to connect, so the error names what this command needs and no other.
 */
export function requireStack<K extends StackVariable>(
  env: CliEnv,
  ...names: K[]
): CliEnv & Pick<StackEnv, K> {
  const missing = names.filter((name) => env[name] === undefined);
  if (missing.length > 0)
    throw new ConfigError(
      missing.map((variable) => ({ variable, message: 'is required by this command (unset)' })),
    );
  return env as CliEnv & Pick<StackEnv, K>;
}

export function parseCliEnv(source: EnvSource): CliEnv {
  return parseEnv(cliEnvSchema, source);
}

/** The process environment, checked: the one place the CLI reads `process.env`. */
export function loadCliEnv(): CliEnv {
  return loadEnv(cliEnvSchema);
}
