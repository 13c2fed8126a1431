import type { Level } from '@tickertape/buckets';
import {
  seedShadow,
  shadowPlan,
  swapShadow,
  type CollectionTarget,
  type ShadowPartition,
  type SwapResult,
} from '@tickertape/store';
import type { Db } from 'mongodb';
import { BackfillError, BackfillErrorCode } from './backfill-error.js';
import type { FinalRange } from './final-ranges.js';

/**
 * The shadow collections of a backfill's final slots. A final slot is one readers and retention
 * already treat as settled, so it changes only the way a rebuild changes it (docs/history.md):
 * its live buckets are copied into a shadow, the backfill folds into the copy with the same
 * guarded updates, and the copy replaces the live range at the end. The shadows are named after
 * the input's digest (backfillRunId), so a rerun after a kill refills the same ones: seeding
 * copies only what a shadow lacks and the guard skips what it already absorbed.
 */
export class BackfillShadows {
  private readonly byLive: Map<string, ShadowPartition>;

  constructor(
    private readonly db: Db,
    readonly parts: readonly ShadowPartition[],
  ) {
    this.byLive = new Map(parts.map((part) => [part.live, part]));
  }

  static plan(ranges: readonly FinalRange[], runIdOf: (level: Level) => string): ShadowPartition[] {
    return ranges.flatMap((range) =>
      shadowPlan(range.level, range.fromMs, range.toMs, runIdOf(range.level)),
    );
  }

  /** Copies the live buckets of every planned range into its shadow; returns how many. */
  async seed(): Promise<number> {
    let copied = 0;
    for (const part of this.parts) copied += await seedShadow(this.db, part);
    return copied;
  }

  /** Where a rollup writer puts a final slot's bucket: the shadow of its live partition. */
  readonly target: CollectionTarget = (live) => {
    const part = this.byLive.get(live);
    if (part === undefined)
      throw new BackfillError(
        BackfillErrorCode.Unplanned,
        `a final slot of ${live} has no shadow: the input changed between the planning and the writing pass?`,
        { retriable: false },
      );
    return part.shadow;
  };

  /** Puts every shadow in place of its live range, one partition after the other. */
  async swap(): Promise<SwapResult[]> {
    const results: SwapResult[] = [];
    for (const part of this.parts) results.push(await swapShadow(this.db, part));
    return results;
  }
}
