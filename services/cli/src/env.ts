import {
  checkSecurity,
  kafkaSecurityShape,
  loadEnv,
  logLevel,
  parseEnv,
  registryAuthShape,
  stackShape,
  type EnvSource,
} from '@tickertape/config';
import { z } from 'zod';
import { LOG_FORMATS } from './log-output.js';

/** Everything the `tickertape` command reads from the environment, checked once at start. */
export const cliEnvSchema = z
  .object({
    ...stackShape,
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

export function parseCliEnv(source: EnvSource): CliEnv {
  return parseEnv(cliEnvSchema, source);
}

/** The process environment, checked: the one place the CLI reads `process.env`. */
export function loadCliEnv(): CliEnv {
  return loadEnv(cliEnvSchema);
}
