import type { Logger } from '@tickertape/logger';
import { readWatermarks } from '@tickertape/store';
import type { Readable } from 'node:stream';
import type { Store } from '@tickertape/topology';
import { BackfillShadows } from '../../backfill/shadows.js';
import { openBackfillInput, type BackfillInput } from '../../backfill/input-file.js';
import { FinalRanges, isFinalAt, type Watermarks } from '../../backfill/final-ranges.js';
import { backfillLines, type BackfillRules } from '../../backfill/lines.js';
import { Rejects } from '../../backfill/rejects.js';
import type { BackfillReport, Refusal } from '../../backfill/report.js';
import { foldInputOf, sourcePartition } from '../../backfill/source.js';
import { isRollupLevel } from '../../backfill/time-rules.js';
import { BackfillWriter, type FlushEntry } from '../../backfill/writer.js';
import { openMongo } from '../../connect.js';
import type { CliEnv } from '../../env.js';
import type { InputFormat } from '../../input/format.js';
import { startProgress } from '../../progress.js';

export interface BackfillOptions {
  /** A path, or `-` for `stdin`. */
  file: string;
  stdin: Readable;
  format: InputFormat;
  database: string;
  stores: readonly Store[];
  retentionMs: Readonly<Record<Store, number>>;
  maxFutureMs: number;
  segmentMaxPoints: number;
  writeOnChange: ReadonlySet<string>;
  flushLines: number;
  /** Keep every rejected line's number and message, not the first few per reason. */
  keepAllRejects: boolean;
}

export interface BackfillIo {
  /** Where progress is drawn (stderr); none when absent. */
  progress?: NodeJS.WritableStream;
  progressEveryMs?: number;
  now: () => number;
}

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

/** How often the runs of the shadows are marked alive (cleanup takes an hour's silence for death). */
const HEARTBEAT_MS = 60_000;

/**
 * The final slots the input touches, per live partition: a planning pass over the whole input,
 * since a shadow must hold its whole range before the first tick is folded into it. Skipped when
 * no asked-for level has a watermark (no scheduler has run: nothing is final).
 */
async function planFinalRanges(
  input: BackfillInput,
  format: InputFormat,
  rules: BackfillRules,
  watermarks: Watermarks,
): Promise<FinalRanges> {
  const ranges = new FinalRanges();
  const levels = rules.stores.filter(isRollupLevel).filter((l) => watermarks[l] !== undefined);
  if (levels.length === 0) return ranges;
  for await (const line of backfillLines(await input.read(), format, rules)) {
    if (!('tick' in line)) continue;
    for (const level of levels)
      if (line.accepted.includes(level) && isFinalAt(level, line.tick.ts, watermarks))
        ranges.add(level, line.tick.ts);
  }
  return ranges;
}

export async function backfill(
  env: CliEnv,
  options: BackfillOptions,
  logger: Logger,
  io: BackfillIo,
): Promise<BackfillReport> {
  const started = io.now();
  const rules: BackfillRules = {
    stores: options.stores,
    nowMs: started,
    maxFutureMs: options.maxFutureMs,
    retentionMs: options.retentionMs,
  };
  const mongo = await openMongo(env, logger, 'tickertape-backfill');
  const input = await openBackfillInput(options.file, options.stdin).catch(async (err: unknown) => {
    await mongo.close();
    throw err;
  });
  try {
    const db = mongo.db(options.database);
    const source = sourcePartition(input.sha256);
    // Read once: both passes route each tick by the same watermarks. One that moves during the
    // run (whole slots, every 30 s, 6 h behind) can finalise a slot this run then still writes
    // directly; live workers stopped writing it long before, so only a reader of that very
    // moment could tell.
    const watermarks = await readWatermarks(db);
    const ranges = await planFinalRanges(input, options.format, rules, watermarks);
    const shadows = await BackfillShadows.open(db, ranges.list(), input.sha256, started);
    const seeded = await shadows.seed();
    const writer = new BackfillWriter(db, logger, {
      stores: options.stores,
      watermarks,
      shadowTarget: shadows.target,
      segmentMaxPoints: options.segmentMaxPoints,
      writeOnChange: options.writeOnChange,
    });
    const rejects = new Rejects(options.keepAllRejects);
    const refused = new Map<Store, number>();
    let ticks = 0;
    const progress = startProgress({
      total: input.lines,
      unit: 'ticks',
      label: 'backfill',
      ...(io.progress === undefined ? {} : { stream: io.progress }),
      ...(io.progressEveryMs === undefined ? {} : { everyMs: io.progressEveryMs }),
      now: io.now,
    });
    try {
      // One flush is written while the next is read; flushes still land one after the other.
      let writing: Promise<void> = Promise.resolve();
      let flush: FlushEntry[] = [];
      let beat = started;
      const send = async (entries: FlushEntry[], lastLine: number) => {
        await writing;
        if (io.now() - beat >= HEARTBEAT_MS) {
          beat = io.now();
          await shadows.heartbeat(beat);
        }
        writing = writer.apply(entries).then(() => progress.update(lastLine));
        // Handled where it is awaited; without this a failure while the next flush is read
        // would count as an unhandled rejection.
        writing.catch(() => undefined);
      };
      for await (const line of backfillLines(await input.read(), options.format, rules)) {
        if (!('tick' in line)) {
          rejects.add(line.number, line.error);
          continue;
        }
        ticks += 1;
        for (const store of line.refused) refused.set(store, (refused.get(store) ?? 0) + 1);
        if (line.accepted.length > 0)
          flush.push({
            input: foldInputOf(line.tick, source, line.number),
            accepted: line.accepted,
          });
        if (flush.length >= options.flushLines) {
          await send(flush, line.number);
          flush = [];
        }
      }
      await send(flush, input.lines);
      await writing;
    } finally {
      progress.stop();
    }
    const outcomes = await shadows.finish(io.now, (level) => writer.shadowChanged(level));
    const elapsedMs = io.now() - started;
    const refusals: Refusal[] = options.stores
      .filter((store) => (refused.get(store) ?? 0) > 0)
      .map((store) => ({
        store,
        ticks: refused.get(store)!,
        retentionMs: options.retentionMs[store],
      }));
    return {
      input: options.file,
      sha256: input.sha256,
      source,
      format: options.format,
      database: options.database,
      lines: input.lines,
      ticks,
      rejected: rejects.total,
      rejects: rejects.list(),
      levels: writer.levelTallies(),
      ...(options.stores.includes('segments') ? { segments: writer.segmentTally } : {}),
      refusals,
      seeded,
      shadows: outcomes,
      elapsedMs,
      ticksPerSecond: elapsedMs > 0 ? (ticks * 1000) / elapsedMs : 0,
    };
  } finally {
    await input.release();
    await mongo.close();
  }
}
