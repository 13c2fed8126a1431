import type { Logger } from '@tickertape/logger';
import type { RollupStore } from '@tickertape/store';
import type { SegmentStore } from '@tickertape/segments';
import type { Readable } from 'node:stream';
import type { Store } from '@tickertape/topology';
import type { InputFormat } from '@tickertape/tick';
import { NO_PROGRESS, type StartProgress } from '../progress.js';
import { BackfillShadows } from './shadows.js';
import { openBackfillInput, type BackfillInput } from './input-file.js';
import { FinalRanges, isFinalAt, type Watermarks } from './final-ranges.js';
import { backfillLines, type BackfillRules } from './lines.js';
import { Rejects } from './rejects.js';
import type { BackfillReport, Refusal } from './report.js';
import { foldInputOf, sourcePartition } from './source.js';
import { isRollupLevel } from './time-rules.js';
import { BackfillWriter, type FlushEntry } from './writer.js';

export interface BackfillOptions {
  /** A path, or `-` for `stdin`. */
  file: string;
  stdin: Readable;
  format: InputFormat;
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
  /** Shows the run's progress (none when absent). */
  startProgress?: StartProgress;
  now: () => number;
}

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

/**
 * Loads a file of ticks into every store asked for, through the workers' validation and guarded
 * writes, final slots through shadows (the CLI's BACKFILL_HELP says what users see of it).
 */
/** Where a backfill writes: the rollups and segments of one database (named in the report). */
export interface BackfillStores {
  rollups: RollupStore;
  segments: SegmentStore;
  database: string;
}

export async function backfill(
  stores: BackfillStores,
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
  const input = await openBackfillInput(options.file, options.stdin);
  try {
    const source = sourcePartition(input.sha256);
    // Read once: both passes route each tick by the same watermarks. One that moves during the
    // run (whole slots, every 30 s, 6 h behind) can finalise a slot this run then still writes
    // directly; live workers stopped writing it long before, so only a reader of that very
    // moment could tell.
    const watermarks = (await stores.rollups.readWatermarks()).finalBefore;
    const ranges = await planFinalRanges(input, options.format, rules, watermarks);
    const shadows = await BackfillShadows.open(
      stores.rollups,
      ranges.list(),
      input.sha256,
      started,
    );
    const seeded = await shadows.seed();
    const writer = new BackfillWriter(stores, logger, {
      stores: options.stores,
      watermarks,
      shadowTarget: shadows.target,
      segmentMaxPoints: options.segmentMaxPoints,
      writeOnChange: options.writeOnChange,
    });
    const rejects = new Rejects(options.keepAllRejects);
    const refused = new Map<Store, number>();
    let ticks = 0;
    const progress = (io.startProgress ?? NO_PROGRESS)({
      total: input.lines,
      unit: 'ticks',
      label: 'backfill',
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
      database: stores.database,
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
  }
}
