import { LEVEL_SPECS, type Level } from '@tickertape/buckets';
import { bucketPartition } from '@tickertape/store';
import type { Db, Document } from 'mongodb';
import { checkBudget, checkMetricSelection, checkRange, type ReaderContext } from './limits.js';
import { partitionsInRange } from './partitions-in-range.js';
import { QueryError, QueryErrorCode } from './query-error.js';

export interface SeriesQuery {
  metric?: string;
  /** Every tag given must match exactly. */
  tags?: Readonly<Record<string, string>>;
  fromMs: number;
  toMs: number;
  limit: number;
}

export interface SeriesInfo {
  series: string;
  metric: string;
  tags: Record<string, string>;
  /** Numeric fields seen in the range. */
  fields: string[];
  /** Slot start of the newest bucket at the discovery level. */
  lastSlotMs: number;
}

export interface SeriesResult {
  series: SeriesInfo[];
  /** The level whose buckets were scanned: the coarsest that runs, one document per series per slot. */
  level: Level;
  examined: number;
  /** True when more series matched than `limit`. */
  truncated: boolean;
}

/**
 * Series with data in [from, to), found by metric and tags. Scans the coarsest running level
 * (a day bucket per series per day) through the `metric_1_start_1_series_1` index, and brings back only
 * names: the server lists each bucket's field names.
 */
export async function findSeries(
  db: Db,
  ctx: ReaderContext,
  query: SeriesQuery,
): Promise<SeriesResult> {
  checkRange(query.fromMs, query.toMs);
  checkMetricSelection(query.metric, query.tags ?? {}, query.limit);
  const level = ctx.levels[ctx.levels.length - 1]!;
  const slots = Math.ceil((query.toMs - query.fromMs) / LEVEL_SPECS[level].slotMs);
  checkBudget(slots, ctx, `discovering series over ${slots} ${level} slots`);
  const filter: Document = {
    start: {
      $gte: new Date(query.fromMs - LEVEL_SPECS[level].slotMs + 1),
      $lt: new Date(query.toMs),
    },
    n: { $gt: 0 },
  };
  if (query.metric !== undefined) filter.metric = query.metric;
  for (const [key, value] of Object.entries(query.tags ?? {})) filter[`tags.${key}`] = value;

  // Count first (an index range on metric/start), so a discovery that would scan too much is
  // refused before anything is read; then each partition groups by series on the server and
  // returns the first `limit + 1` keys in order, so `limit` means the first series by key.
  const partitions = partitionsInRange(level, query.fromMs, query.toMs);
  const counts = await Promise.all(
    partitions.map((partition) => bucketPartition(db, partition.name).count(filter)),
  );
  const examined = counts.reduce((total, count) => total + count, 0);
  if (examined > ctx.limits.maxDocuments)
    throw new QueryError(
      QueryErrorCode.ReadBudgetExceeded,
      `discovery would read ${examined} documents; the limit is ${ctx.limits.maxDocuments}: narrow the range or filter by metric or tags`,
    );
  const found = new Map<string, SeriesInfo & { fieldSet: Set<string> }>();
  for (const [i, partition] of partitions.entries()) {
    if (counts[i] === 0) continue;
    const rows = await bucketPartition(db, partition.name).aggregate<{
      _id: string;
      metric: string;
      tags: Record<string, string>;
      lastStart: Date;
      fields: string[];
    }>([
      { $match: filter },
      {
        $project: {
          series: 1,
          metric: 1,
          tags: 1,
          start: 1,
          fields: { $map: { input: { $objectToArray: '$f' }, in: '$$this.k' } },
        },
      },
      { $unwind: '$fields' },
      {
        $group: {
          _id: '$series',
          metric: { $first: '$metric' },
          tags: { $first: '$tags' },
          lastStart: { $max: '$start' },
          fields: { $addToSet: '$fields' },
        },
      },
      { $sort: { _id: 1 } },
      { $limit: query.limit + 1 },
    ]);
    for (const row of rows) {
      const seen = found.get(row._id) ?? {
        series: row._id,
        metric: row.metric,
        tags: row.tags,
        fields: [],
        lastSlotMs: 0,
        fieldSet: new Set<string>(),
      };
      for (const name of row.fields) seen.fieldSet.add(name);
      seen.lastSlotMs = Math.max(seen.lastSlotMs, row.lastStart.getTime());
      found.set(row._id, seen);
    }
  }
  const all = [...found.values()].sort((a, b) =>
    a.series < b.series ? -1 : a.series > b.series ? 1 : 0,
  );
  return {
    level,
    examined,
    truncated: all.length > query.limit,
    series: all
      .slice(0, query.limit)
      .map(({ fieldSet, ...info }) => ({ ...info, fields: [...fieldSet].sort() })),
  };
}
