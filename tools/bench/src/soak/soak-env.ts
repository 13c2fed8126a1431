import { LEVELS } from '@tickertape/buckets';
import { flag, loadEnv, logLevel, positiveInt, stackShape } from '@tickertape/config';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const DEFAULT_STACK_DIR = fileURLToPath(new URL('../../../../.stack', import.meta.url));

/** The soak's environment (scripts/soak.sh sets it), checked once at start. */
const soakEnvSchema = z.object({
  MONGODB_URI: stackShape.MONGODB_URI,
  LOG_LEVEL: logLevel(),
  /** Series per loaded hour, and hours loaded: series × hours × 60 minute buckets. */
  SOAK_SERIES: positiveInt().default(10_000),
  SOAK_HOURS: positiveInt().default(17),
  /** Numeric fields per tick (each adds a per-second sum to a minute bucket, a summary to an hour's minute). */
  SOAK_FIELDS: positiveInt().default(2),
  /**
   * The levels written, comma-separated: every tick is one upsert at each. The minute level alone
   * is the cheapest way to many buckets (a new document per tick); hour and day add updates of
   * ever larger documents.
   */
  SOAK_LEVELS: z
    .string()
    .default(LEVELS.join(','))
    .transform((list) => list.split(',').map((level) => level.trim()))
    .pipe(
      z
        .array(z.enum(LEVELS))
        .refine(
          (levels) => levels.includes(LEVELS[0]),
          'must include minute (the partition measured)',
        ),
    ),
  /**
   * Skip the load and measure the reads on what an earlier, interrupted run loaded (the same
   * SOAK_DATABASE); SOAK_HOURS then names the whole hours it loaded (the window ends there).
   */
  SOAK_READ_ONLY: flag().default(false),
  /** Calls of the seed's window after the first (each scans the partition: no secondary index). */
  SOAK_WINDOW_CALLS: positiveInt().default(20),
  /** Ticks a flush, as a worker's batch. */
  SOAK_FLUSH: positiveInt().default(5_000),
  SOAK_DATABASE: z.string().min(1).default('tickertape_soak'),
  /** The stack's state: run/mongo.pid names the database process, data/<TT_MONGO's dir> its files. */
  TT_STACK_DIR: z.string().min(1).default(DEFAULT_STACK_DIR),
  /** Which database the stack's mongo part runs (infra/local/stack.sh). */
  TT_MONGO: z.enum(['stand-in', 'ferretdb']).default('stand-in'),
  /**
   * The stack part measured: mongo (what MONGODB_URI points at), or the optional ferretdb part
   * beside it (then point MONGODB_URI at FERRETDB_URI): scripts/soak.sh --ferretdb-part.
   */
  SOAK_PART: z.enum(['mongo', 'ferretdb']).default('mongo'),
});

export type SoakEnv = z.output<typeof soakEnvSchema>;

export function loadSoakEnv(): SoakEnv {
  return loadEnv(soakEnvSchema);
}
