import {
  checkSecurity,
  flag,
  kafkaSecurityShape,
  logLevel,
  parseEnv,
  positiveInt,
  registryAuthShape,
  stackShape,
  type EnvSource,
} from '@tickertape/config';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** The repository's local stack script, found from this file (src/ or dist/ alike). */
const LOCAL_STACK_SCRIPT = fileURLToPath(new URL('../../../infra/local/stack.sh', import.meta.url));

/** The fault suite's whole configuration, parsed once at start. */
export const faultsEnvSchema = z
  .object({
    ...stackShape,
    /** TLS and SASL to the brokers, basic auth to the registry (docs/security.md), passed on to the workers. */
    ...kafkaSecurityShape,
    ...registryAuthShape,
    /** `short` (about two minutes, what CI runs) or `long` (ten minutes of load). */
    FAULT_PROFILE: z.enum(['short', 'long']).default('short'),
    /** Seeds the load and which worker each kill hits, so a run can be repeated. */
    FAULT_SEED: z.coerce.number().int().default(7),
    /**
     * Restarts Kafka, MongoDB and Redis mid-run with `<script> restart <part>`. Only the local
     * stack can be restarted this way: turn it off against external services.
     */
    FAULT_RESTART_STACK: flag().default(true),
    FAULT_STACK_SCRIPT: z.string().min(1).default(LOCAL_STACK_SCRIPT),
    /** Where the JSON summary goes (`faults-<profile>.json`). */
    FAULT_OUT_DIR: z.string().min(1).default('.out'),
    /** How long the workers get to catch up after the load before the check gives up. */
    FAULT_CATCH_UP_MS: positiveInt().default(180_000),
    LOG_LEVEL: logLevel(),
  })
  .check(checkSecurity);

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
