import {
  checkSecurity,
  flag,
  httpUrl,
  kafkaBrokers,
  kafkaSecurityShape,
  logLevel,
  mongoUri,
  parseEnv,
  positiveInt,
  redisUrl,
  registryAuthShape,
  stackShape,
  type EnvSource,
} from '@tickertape/config';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { PROFILE_NAMES, PROFILES } from './schedule.js';

/** The repository's local stack script, found from this file (src/ or dist/ alike). */
const LOCAL_STACK_SCRIPT = fileURLToPath(new URL('../../../infra/local/stack.sh', import.meta.url));

/** The fault suite's whole configuration, parsed once at start. */
export const faultsEnvSchema = z
  .object({
    ...stackShape,
    /** TLS and SASL to the brokers, basic auth to the registry (docs/security.md), passed on to the workers. */
    ...kafkaSecurityShape,
    ...registryAuthShape,
    /**
     * `short` (about two minutes, what CI runs), `long` (ten minutes of load), `cluster` (seven
     * minutes on three brokers with network faults) or `cluster-short` (its CI version).
     */
    FAULT_PROFILE: z.enum(PROFILE_NAMES).default('short'),
    /** The cluster profiles' stack (scripts/faults.sh sets these from `stack.sh env`). */
    TT_KAFKA_BROKERS: z.coerce.number().int().positive().default(1),
    TOXIPROXY_URL: httpUrl().optional(),
    /** The addresses that reach each part through Toxiproxy, for the workers and the scheduler. */
    TT_TOXI_KAFKA_BROKERS: kafkaBrokers().optional(),
    TT_TOXI_MONGODB_URI: mongoUri().optional(),
    TT_TOXI_REDIS_URL: redisUrl().optional(),
    TT_TOXI_SCHEMA_REGISTRY_URL: httpUrl().optional(),
    /** libfaketime's library (Debian's libfaketime), for the clock steps of the cluster profiles. */
    FAULT_FAKETIME_LIB: z.string().min(1).optional(),
    /** Seeds the load and which worker each kill hits, so a run can be repeated. */
    FAULT_SEED: z.coerce.number().int().default(7),
    /**
     * Restarts Kafka, MongoDB and Redis mid-run with `<script> restart <part>`. Only the local
     * stack can be restarted this way: turn it off against external services.
     */
    FAULT_RESTART_STACK: flag().default(true),
    FAULT_STACK_SCRIPT: z.string().min(1).default(LOCAL_STACK_SCRIPT),
    /**
     * Quantile sketches on for the load's metrics, and the stock price weighted by volume, before
     * any worker starts: the checker then compares those parts too (issue 36).
     */
    FAULT_SKETCHES: flag().default(true),
    /** Where the JSON summary goes (`faults-<profile>.json`). */
    FAULT_OUT_DIR: z.string().min(1).default('.out'),
    /** How long the workers get to catch up after the load before the check gives up. */
    FAULT_CATCH_UP_MS: positiveInt().default(180_000),
    LOG_LEVEL: logLevel(),
  })
  .check(checkSecurity)
  .check((ctx) => {
    if (PROFILES[ctx.value.FAULT_PROFILE].stack !== 'cluster') return;
    const need = (variable: string, why: string) =>
      ctx.issues.push({ code: 'custom', input: ctx.value, path: [variable], message: why });
    const why = `is required by FAULT_PROFILE=${ctx.value.FAULT_PROFILE} (scripts/faults.sh sets it)`;
    if (ctx.value.TT_KAFKA_BROKERS !== 3)
      need('TT_KAFKA_BROKERS', `must be 3 for FAULT_PROFILE=${ctx.value.FAULT_PROFILE}`);
    for (const variable of [
      'TOXIPROXY_URL',
      'TT_TOXI_KAFKA_BROKERS',
      'TT_TOXI_MONGODB_URI',
      'TT_TOXI_REDIS_URL',
      'TT_TOXI_SCHEMA_REGISTRY_URL',
      'FAULT_FAKETIME_LIB',
    ] as const)
      if (ctx.value[variable] === undefined) need(variable, why);
  });

export type FaultsEnv = z.output<typeof faultsEnvSchema> & {
  /**
   * What the suite's child processes inherit besides their own settings: PATH, HOME and the
   * local stack's `TT_*` overrides (ports, versions), so `stack.sh restart` finds the same stack.
   */
  inherited: Record<string, string>;
};

export function parseFaultsEnv(source: EnvSource): FaultsEnv {
  const inherited: Record<string, string> = {};
  for (const [key, value] of Object.entries(source)) {
    if (value !== undefined && (key === 'PATH' || key === 'HOME' || key.startsWith('TT_')))
      inherited[key] = value;
  }
  return { ...parseEnv(faultsEnvSchema, source), inherited };
}
