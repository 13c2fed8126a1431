import type { Level } from '@tickertape/buckets';
import {
  shadowPlan,
  type PartitionTarget,
  type RollupStore,
  type ShadowPartition,
  type SwapResult,
} from '@tickertape/store';
import { BackfillError, BackfillErrorCode } from './backfill-error.js';
import type { FinalRange } from './final-ranges.js';
import { backfillRunId } from './source.js';

/** One level's run record (the `rebuilds` collection) and the shadows it owns. */
interface LevelRun {
  level: Level;
  id: string;
  /** An unfinished run of the same input and range was found: its shadows may hold lines. */
  resumed: boolean;
  parts: ShadowPartition[];
}

export interface ShadowOutcome {
  level: Level;
  live: string;
  fromMs: number;
  toMs: number;
  /** Absent when the shadow held nothing the live range lacks and was dropped instead. */
  swap?: SwapResult;
}

/**
 * The shadow collections of a backfill's final slots. A final slot is one readers and retention
 * already treat as settled, so it changes only the way a rebuild changes it (docs/history.md):
 * its live buckets are copied into a shadow, the backfill folds into the copy with the same
 * guarded updates, and the copy replaces the live range at the end.
 *
 * Each level's run is recorded like a rebuild's (startRun), keyed by the input's digest and the
 * range, so a rerun after a kill resumes the same run — the same shadows, refilled idempotently:
 * seeding copies only what a shadow lacks and the guard skips what it already absorbed. A run
 * after a finished one starts afresh from the live buckets, which already hold the earlier run.
 */
export class BackfillShadows {
  private readonly byLive: Map<string, ShadowPartition>;

  private constructor(
    private readonly store: RollupStore,
    private readonly runs: readonly LevelRun[],
  ) {
    this.byLive = new Map(runs.flatMap((run) => run.parts).map((part) => [part.live, part]));
  }

  get parts(): ShadowPartition[] {
    return this.runs.flatMap((run) => run.parts);
  }

  /** Records (or resumes) one run per level with final slots and plans its shadows. */
  static async open(
    store: RollupStore,
    ranges: readonly FinalRange[],
    sha256: string,
    nowMs: number,
  ): Promise<BackfillShadows> {
    const runs: LevelRun[] = [];
    for (const level of new Set(ranges.map((range) => range.level))) {
      const own = ranges.filter((range) => range.level === level);
      const { run, resumed } = await store.startRun(
        {
          id: backfillRunId(sha256, level, nowMs),
          kind: 'backfill',
          level,
          fromMs: Math.min(...own.map((range) => range.fromMs)),
          toMs: Math.max(...own.map((range) => range.toMs)),
          source: `sha256:${sha256}`,
          partitions: own.map((range) => range.live),
        },
        nowMs,
      );
      const parts = own.flatMap((range) => shadowPlan(level, range.fromMs, range.toMs, run.id));
      runs.push({ level, id: run.id, resumed, parts });
    }
    return new BackfillShadows(store, runs);
  }

  /** Copies the live buckets of every planned range into its shadow; returns how many. */
  async seed(): Promise<number> {
    let copied = 0;
    for (const part of this.parts) copied += await this.store.seedShadow(part);
    return copied;
  }

  /** Where a rollup writer puts a final slot's bucket: the shadow of its live partition. */
  readonly target: PartitionTarget = (live) => {
    const part = this.byLive.get(live);
    if (part === undefined)
      throw new BackfillError(
        BackfillErrorCode.Unplanned,
        `a final slot of ${live} has no shadow: the input changed between the planning and the writing pass?`,
        { retriable: false },
      );
    return part.shadow;
  };

  /** Marks the runs alive: `tickertape rebuild --cleanup` drops the shadows of abandoned ones. */
  async heartbeat(nowMs: number): Promise<void> {
    for (const run of this.runs) await this.store.updateRun(run.id, nowMs);
  }

  /**
   * Puts every shadow in place of its live range, one partition after the other. A fresh run's
   * shadows into which nothing new was folded (`changed` false: a second run of the same input)
   * equal their live range: they are dropped, and nothing live is rewritten.
   */
  async finish(nowMs: () => number, changed: (level: Level) => boolean): Promise<ShadowOutcome[]> {
    const outcomes: ShadowOutcome[] = [];
    for (const run of this.runs) {
      const swap = run.resumed || changed(run.level);
      await this.store.updateRun(run.id, nowMs(), { state: 'swapping' });
      for (const part of run.parts) {
        const { level, live, fromMs, toMs } = part;
        if (swap)
          outcomes.push({ level, live, fromMs, toMs, swap: await this.store.swapShadow(part) });
        else {
          await this.store.partition(part.shadow).drop();
          outcomes.push({ level, live, fromMs, toMs });
        }
      }
      await this.store.updateRun(run.id, nowMs(), { state: 'done' });
    }
    return outcomes;
  }
}
