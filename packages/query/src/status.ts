import { parsePartitionName, type Level } from '@tickertape/buckets';
import type { Db } from 'mongodb';
import {
  bucketPartition,
  isObservedAggregate,
  listPartitionNames,
  type StoredBucket,
} from '@tickertape/store';
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
 * Freshness and finality of one series at every level: the newest bucket, found newest
 * partition first with one `_id` range probe each, and the watermark.
 */
export async function seriesStatus(
  db: Db,
  ctx: ReaderContext,
  series: string,
): Promise<StatusResult> {
  checkSeries(series);
  const finality = await finalityOf(db, ctx).current();
  const partitions = (await listPartitionNames(db))
    .map((name) => parsePartitionName(name))
    .filter((range) => range !== undefined)
    .sort((a, b) => b.startMs - a.startMs);
  let examined = 0;
  const levels = await Promise.all(
    ctx.levels.map(async (level): Promise<LevelStatus> => {
      // Shells (n 0) preallocated for the next slot are not data.
      let newest: StoredBucket | undefined;
      const own = partitions.filter((p) => p.level === level).slice(0, MAX_PARTITIONS_SEARCHED);
      for (const partition of own) {
        // ':' is escaped inside keys, so [key + ':', key + ';') holds exactly this series' buckets.
        newest = (
          await bucketPartition(db, partition.name).find(
            { _id: { $gte: `${series}:`, $lt: `${series};` }, n: { $gt: 0 } },
            { sort: { _id: -1 }, limit: 1 },
          )
        )[0];
        if (newest) break;
      }
      if (!newest)
        return {
          level,
          latestSlotMs: null,
          freshnessMs: null,
          latestFinal: false,
          finalBefore: finality.finalBefore(level),
        };
      examined += 1;
      const start = newest.start.getTime();
      const lastTimes = Object.values(newest.f ?? {})
        .filter(isObservedAggregate)
        .map((field) => field.last.t);
      return {
        level,
        latestSlotMs: start,
        freshnessMs: lastTimes.length > 0 ? Math.max(...lastTimes) : null,
        latestFinal: finality.isFinal(level, start),
        finalBefore: finality.finalBefore(level),
      };
    }),
  );
  return { series, levels, examined };
}
