import { slotStart, type FoldInput, type Level } from '@tickertape/buckets';
import { SegmentWriter, type SegmentStore } from '@tickertape/segments';
import type { ApplyStats, PartitionTarget, RollupStore, RollupWriter } from '@tickertape/store';
import { isRetriable } from '@tickertape/errors';
import type { Logger } from '@tickertape/logger';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Store } from '@tickertape/topology';
import { isFinalAt, type Watermarks } from './final-ranges.js';
import { isRollupLevel } from './time-rules.js';

/** One admitted line of a flush: the fold's input and the stores it goes to. */
export interface FlushEntry {
  input: FoldInput;
  accepted: readonly Store[];
}

/** What one rollup level received over the run. */
export interface LevelTally {
  ticks: number;
  /** Of `ticks`, those in final slots, written through the shadows. */
  viaShadow: number;
  /** Distinct buckets the ticks fall in. */
  buckets: number;
  /** Guarded updates sent, conflict retries included. */
  operations: number;
  /** Buckets that already held part of a flush: lines an earlier run of this input applied. */
  conflicts: number;
  /** Some final slot's shadow took a line it did not hold yet. */
  shadowChanged: boolean;
}

export interface SegmentTally {
  ticks: number;
  /** Points stored by this run. */
  points: number;
  /** Older than their chain's newest point: kept by the rollups only, as on the live path. */
  late: number;
  /** Applied by an earlier run of this input. */
  replayed: number;
  unchanged: number;
  created: number;
  operations: number;
}

export interface WriterOptions {
  stores: readonly Store[];
  watermarks: Watermarks;
  /** Where final slots go (it refuses a partition the planning pass did not foresee). */
  shadowTarget: PartitionTarget;
  segmentMaxPoints: number;
  writeOnChange: ReadonlySet<string>;
}

interface LevelWriters {
  level: Level;
  direct: RollupWriter;
  shadow: RollupWriter;
  tally: LevelTally;
  seen: Set<string>;
}

/** Attempts of one store's part of a flush when the database fails it transiently. */
const ATTEMPTS = 5;

/** Writes again what failed transiently: each writer's apply is safe to repeat (the guards). */
async function withRetries<T>(work: () => Promise<T>, logger: Logger): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (attempt >= ATTEMPTS || !isRetriable(err)) throw err;
      logger.warn({ err, attempt }, 'backfill write failed; writing it again');
      await sleep(500 * 2 ** (attempt - 1));
    }
  }
}

function add(tally: LevelTally, stats: ApplyStats): void {
  tally.operations += stats.operations;
  tally.conflicts += stats.conflicts;
}

/**
 * Writes a backfill's flushes with the workers' own writers: per rollup level the guarded fold
 * (RollupWriter), into the live partitions or, for final slots, their shadows; and the segment
 * writer. Flushes must come in line order and one at a time — the exactly-once guard needs each
 * bucket's lines applied as a prefix — while the stores of one flush are written side by side.
 */
export class BackfillWriter {
  private readonly levels: LevelWriters[];
  private readonly segments?: SegmentWriter;
  readonly segmentTally: SegmentTally = {
    ticks: 0,
    points: 0,
    late: 0,
    replayed: 0,
    unchanged: 0,
    created: 0,
    operations: 0,
  };

  constructor(
    stores: { rollups: RollupStore; segments: SegmentStore },
    private readonly logger: Logger,
    private readonly options: WriterOptions,
  ) {
    this.levels = options.stores.filter(isRollupLevel).map((level) => ({
      level,
      direct: stores.rollups.writer(level),
      shadow: stores.rollups.writer(level, { target: options.shadowTarget }),
      tally: {
        ticks: 0,
        viaShadow: 0,
        buckets: 0,
        operations: 0,
        conflicts: 0,
        shadowChanged: false,
      },
      seen: new Set(),
    }));
    if (options.stores.includes('segments'))
      this.segments = new SegmentWriter(stores.segments, {
        maxPoints: options.segmentMaxPoints,
        writeOnlyOnChange: options.writeOnChange,
      });
  }

  levelTallies(): { level: Level; tally: LevelTally }[] {
    return this.levels.map(({ level, tally }) => ({ level, tally }));
  }

  shadowChanged(level: Level): boolean {
    return this.levels.some((writers) => writers.level === level && writers.tally.shadowChanged);
  }

  async apply(flush: readonly FlushEntry[]): Promise<void> {
    await Promise.all([
      ...this.levels.map((writers) => this.applyLevel(writers, flush)),
      this.applySegments(flush),
    ]);
  }

  private async applyLevel(writers: LevelWriters, flush: readonly FlushEntry[]): Promise<void> {
    const { level, tally, seen } = writers;
    const direct: FoldInput[] = [];
    const final: FoldInput[] = [];
    for (const { input, accepted } of flush)
      if (accepted.includes(level))
        (isFinalAt(level, input.ts, this.options.watermarks) ? final : direct).push(input);
    const [a, b] = await Promise.all([
      direct.length > 0 ? withRetries(() => writers.direct.apply(direct), this.logger) : undefined,
      final.length > 0 ? withRetries(() => writers.shadow.apply(final), this.logger) : undefined,
    ]);
    // Counted once written: a flush the database failed is written again, and counted then.
    tally.ticks += direct.length + final.length;
    tally.viaShadow += final.length;
    for (const input of [...direct, ...final]) {
      const bucket = `${slotStart(level, input.ts)}/${input.seriesKey}`;
      if (!seen.has(bucket)) {
        seen.add(bucket);
        tally.buckets += 1;
      }
    }
    if (a) add(tally, a);
    if (b) {
      add(tally, b);
      // Every update missed the guard and nothing was left to re-fold: the shadow held it all.
      if (b.operations > b.conflicts) tally.shadowChanged = true;
    }
  }

  private async applySegments(flush: readonly FlushEntry[]): Promise<void> {
    if (this.segments === undefined) return;
    const inputs = flush.filter((e) => e.accepted.includes('segments')).map((e) => e.input);
    if (inputs.length === 0) return;
    const segments = this.segments;
    const stats = await withRetries(() => segments.apply(inputs), this.logger);
    const t = this.segmentTally;
    t.ticks += inputs.length;
    t.points += stats.points;
    t.late += stats.late;
    t.replayed += stats.replayed;
    t.unchanged += stats.unchanged;
    t.created += stats.created;
    t.operations += stats.operations;
  }
}
