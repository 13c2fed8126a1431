import type { Level } from '@tickertape/buckets';
import type { RollupStore } from '@tickertape/store';
import { checkSeries, finalityOf, type ReaderContext } from './limits.js';

export interface LevelStatus {
  level: Level;
  /** Slot start of the series' newest bucket at this level; `null` if none in the searched partitions. */
  latestSlotMs: number | null;
  /** Event time of the newest tick applied to that bucket: how fresh this level is for the series. */
  freshnessMs: number | null;
  /** Whether that newest slot is final. */
  latestFinal: boolean;
  /** Every slot of this level ending at or before this instant is final; `null` before the scheduler's first run. */
  finalBefore: number | null;
}

export interface StatusResult {
  series: string;
  levels: LevelStatus[];
  examined: number;
}

/** Partitions searched per level for the newest bucket: a month of minute partitions, 31 months of hour ones. */
const MAX_PARTITIONS_SEARCHED = 31;

/**
 * Freshness and finality of one series at every level: the newest bucket with ticks (the store
 * searches the newest partitions first) and the watermark.
 */
export async function seriesStatus(
  store: RollupStore,
  ctx: ReaderContext,
  series: string,
): Promise<StatusResult> {
  checkSeries(series);
  const finality = await finalityOf(store, ctx).current();
  let examined = 0;
  const levels = await Promise.all(
    ctx.levels.map(async (level): Promise<LevelStatus> => {
      const newest = await store.newestBucket(level, series, MAX_PARTITIONS_SEARCHED);
      if (!newest)
        return {
          level,
          latestSlotMs: null,
          freshnessMs: null,
          latestFinal: false,
          finalBefore: finality.finalBefore(level),
        };
      examined += 1;
      return {
        level,
        latestSlotMs: newest.start,
        freshnessMs: newest.lastTickMs,
        latestFinal: finality.isFinal(level, newest.start),
        finalBefore: finality.finalBefore(level),
      };
    }),
  );
  return { series, levels, examined };
}
