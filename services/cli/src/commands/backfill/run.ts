import type { Logger } from '@tickertape/logger';
import { backfill, type BackfillOptions, type BackfillReport } from '@tickertape/history';
import { openStores } from '../../connect.js';
import type { CliEnv } from '../../env.js';
import { startProgress } from '../../progress.js';

export const BACKFILL_HELP = `
Loads historical ticks of any age into every rollup level and the segment store, with the
workers' own validation (the same rejection reasons) and their own guarded writes, so the result
is what live ingestion of the same ticks would have made. Nothing goes through Kafka.

Input: the lines tickertape publish reads (jsonl or csv; see tickertape publish --help). A bad
line is reported with its line number and reason and skipped; the command then exits 1.

Exactly once: the input is known by the sha256 of its bytes (stdin is spooled to a temporary
file first), which numbers a partition of its own (1000000 and up, never a Kafka partition);
each line's number is its offset. Running the same file again, or again after a kill, changes
nothing that was written; another file adds to it. Where the range already holds live buckets,
each bucket gets the union of both, as with two Kafka partitions (docs/exactly-once.md); the
segment store keeps the file's raw points as a chain of their own beside the live one. A series'
points older than the newest point the file gave it are in the rollups only, as on the live path.

Time: no lateness bound, but a tick more than --max-future-ms after now is rejected
(TIMESTAMP_OUT_OF_RANGE). A store does not take ticks whose collection its retention would drop
(minute 7d, hour 90d, day 1825d, segments 7d by default: the scheduler's RETENTION_*_MS;
--retention minute=14d to match yours): they are counted per store as refused, not an error.
A 30-day-old file thus fills hour and day and is refused by minute and segments.

Final slots (older than the level's finality watermark) change only through shadows, as in a
rebuild: their live buckets are copied aside, the ticks folded into the copy, and the copy put in
place at the end (replaced buckets kept until tickertape rebuild --cleanup). Do not backfill the
same final range from two files at once.
`;

export interface BackfillIo {
  /** Where progress is drawn (stderr); none when absent. */
  progress?: NodeJS.WritableStream;
  progressEveryMs?: number;
  now: () => number;
}

/** `tickertape backfill`: the history engine's backfill into the database the options name. */
export async function backfillCommand(
  env: CliEnv,
  options: BackfillOptions & { database: string },
  logger: Logger,
  io: BackfillIo,
): Promise<BackfillReport> {
  const stores = await openStores(env, logger, 'tickertape-backfill', options.database);
  try {
    return await backfill({ ...stores, database: options.database }, options, logger, {
      now: io.now,
      startProgress: (run) =>
        startProgress({
          ...run,
          ...(io.progress === undefined ? {} : { stream: io.progress }),
          ...(io.progressEveryMs === undefined ? {} : { everyMs: io.progressEveryMs }),
          now: io.now,
        }),
    });
  } finally {
    await stores.close();
  }
}
