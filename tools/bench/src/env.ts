import {
  checkSecurity,
  kafkaShape,
  loadEnv,
  logLevel,
  parseEnv,
  positiveInt,
  registryShape,
  stackShape,
  type EnvSource,
} from '@tickertape/config';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** This checkout's `.stack/` (infra/local/stack.sh's default), from src/ or dist/ alike. */
const DEFAULT_STACK_DIR = fileURLToPath(new URL('../../../.stack', import.meta.url));

/** The harness's environment, checked once at start: three of the stack's four addresses. */
export const benchEnvSchema = z
  .object({
    /** The addresses and their credentials (docs/security.md); the workers get the same. */
    ...kafkaShape,
    ...registryShape,
    MONGODB_URI: stackShape.MONGODB_URI,
    /** Progress lines on stderr; the report itself goes to stdout whatever the level. */
    LOG_LEVEL: logLevel(),
    /** How long a start waits for each dependency (the workers get the same value). */
    STARTUP_TIMEOUT_MS: positiveInt().default(10_000),
    /** Passed on to the worker processes so they find `node` and a home directory. */
    PATH: z.string().default(''),
    HOME: z.string().default(''),
    /**
     * The local stack's state directory, as infra/local/stack.sh reads it: its `run/<part>.pid`
     * files name the database, Kafka and registry processes whose CPU the report measures.
     */
    TT_STACK_DIR: z.string().min(1).default(DEFAULT_STACK_DIR),
    /**
     * Extra node arguments for the worker processes, split on spaces, e.g. `--max-old-space-size=512`
     * (node refuses --cpu-prof in NODE_OPTIONS; the harness's --cpu-profile adds it itself).
     */
    BENCH_WORKER_NODE_ARGS: z
      .string()
      .optional()
      .transform((text) => (text ?? '').split(/\s+/).filter((arg) => arg !== '')),
  })
  .check(checkSecurity);

export type BenchEnv = z.output<typeof benchEnvSchema>;

export function parseBenchEnv(source: EnvSource): BenchEnv {
  return parseEnv(benchEnvSchema, source);
}

/** The process environment, checked: the one place the harness reads `process.env`. */
export function loadBenchEnv(): BenchEnv {
  return loadEnv(benchEnvSchema);
}
