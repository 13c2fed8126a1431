import type { Level, PartitionRange } from '@tickertape/buckets';
import type { Db } from 'mongodb';
import { isObservedAggregate, type StoredBucket } from '../../layout/stored-bucket.js';
import type { NewestBucket } from '../../port/bucket-reads.js';
import { boundOptions, type ReadBounds } from '../read-bounds.js';

/**
 * A series' newest bucket with ticks at `level`, newest partition first, one `_id` range probe
 * per partition (at most `partitions` of them). Shells (`n` 0) preallocated for the next slot are
 * not data.
 */
export async function newestBucket(
  db: Db,
  present: () => Promise<PartitionRange[]>,
  level: Level,
  series: string,
  partitions: number,
  bounds: ReadBounds = {},
): Promise<NewestBucket | undefined> {
  const own = (await present())
    .filter((range) => range.level === level)
    .sort((a, b) => b.startMs - a.startMs)
    .slice(0, partitions);
  for (const partition of own) {
    // ':' is escaped inside keys, so [key + ':', key + ';') holds exactly this series' buckets.
    const [newest] = await db
      .collection<StoredBucket>(partition.name)
      .find({ _id: { $gte: `${series}:`, $lt: `${series};` }, n: { $gt: 0 } }, boundOptions(bounds))
      .sort({ _id: -1 })
      .limit(1)
      .toArray();
    if (!newest) continue;
    const lastTimes = Object.values(newest.f ?? {})
      .filter(isObservedAggregate)
      .map((field) => field.last.t);
    return {
      start: newest.start.getTime(),
      lastTickMs: lastTimes.length > 0 ? Math.max(...lastTimes) : null,
    };
  }
  return undefined;
}
