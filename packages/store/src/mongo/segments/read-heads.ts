import {
  partitionOfSegmentId,
  segmentCollection,
  type Chain,
  type SegmentDocument,
  type StoredHeads,
} from '@tickertape/segments';
import type { Db } from 'mongodb';
import { listSegmentDays } from './day-collections.js';
import { seriesIdRange } from './ids.js';

function chainKey(series: string, partition: number): string {
  return `${partition}/${series}`;
}

/**
 * SegmentStore.readHeads: one aggregation per day, newest day first, until every chain asked for
 * is found. A series' other chains are met on the way, as the search for a missing chain reads
 * every day.
 */
export async function readHeads(db: Db, chains: readonly Chain[]): Promise<StoredHeads> {
  const result: StoredHeads = { heads: [], others: new Map() };
  if (chains.length === 0) return result;
  const others = new Map<string, Set<number>>();
  const missing = new Map(chains.map((c) => [chainKey(c.series, c.partition), c]));
  const wanted = new Set(missing.keys());
  for (const day of (await listSegmentDays(db)).reverse()) {
    if (missing.size === 0) break;
    const series = new Set([...missing.values()].map((c) => c.series));
    const rows = await db
      .collection<SegmentDocument>(segmentCollection(day))
      .aggregate<{ head: SegmentDocument }>([
        { $match: { $or: [...series].map((s) => ({ _id: seriesIdRange(s) })) } },
        { $project: { t: 0, v: 0 } },
        { $sort: { _id: -1 } },
        // Newest per chain. Segments from before `p` existed group apart, so the chain is read
        // from the id, and the newest id of a chain wins below.
        { $group: { _id: { series: '$series', p: '$p' }, head: { $first: '$$ROOT' } } },
      ])
      .toArray();
    rows.sort((a, b) => (a.head._id < b.head._id ? 1 : -1));
    for (const { head } of rows) {
      const partition = partitionOfSegmentId(head._id);
      const key = chainKey(head.series, partition);
      if (missing.has(key)) {
        missing.delete(key);
        result.heads.push({
          series: head.series,
          partition,
          head: {
            id: head._id,
            day: head.day,
            n: head.n,
            end: head.end,
            last: head.last,
            ap: head.ap,
          },
        });
      } else if (!wanted.has(key)) {
        const seen = others.get(head.series) ?? new Set<number>();
        others.set(head.series, seen.add(partition));
      }
    }
  }
  for (const [series, partitions] of others)
    result.others.set(
      series,
      [...partitions].sort((a, b) => a - b),
    );
  return result;
}
