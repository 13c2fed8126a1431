import { LEVEL_SPECS, type Level } from '@tickertape/buckets';
import type { Db, Document } from 'mongodb';
import { checkBudget, checkName, checkRange, type ReaderContext } from './limits.js';
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
  /** Slot start of the newest bucket seen at the discovery level. */
  lastSlotMs: number;
}

export interface SeriesResult {
  series: SeriesInfo[];
  /** The level whose buckets were scanned: the coarsest that runs, one document per series per slot. */
  level: Level;
  examined: number;
  /** True when more series matched than `limit`, or the scan stopped at the document budget. */
  truncated: boolean;
}

/**
 * Series with data in [from, to), found by metric and tags. Scans the coarsest running level
 * (a day bucket per series per day) through the `metric_1_start_1` index, and brings back only
 * names: the server lists each bucket's field names.
 */
export async function findSeries(
  db: Db,
  ctx: ReaderContext,
  query: SeriesQuery,
): Promise<SeriesResult> {
  checkRange(query.fromMs, query.toMs);
  // A metric is matched as a value, not used as a path: any non-empty name (e.g. `stock.tick`) is fine.
  if (query.metric === '')
    throw new QueryError(QueryErrorCode.InvalidName, 'metric must not be empty');
  for (const key of Object.keys(query.tags ?? {})) checkName('tag', key);
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

  const found = new Map<string, SeriesInfo & { fieldSet: Set<string> }>();
  let examined = 0;
  let truncated = false;
  for (const partition of partitionsInRange(level, query.fromMs, query.toMs)) {
    const budget = ctx.limits.maxDocuments - examined;
    if (budget <= 0) {
      truncated = true;
      break;
    }
    const rows = await db
      .collection<Document>(partition.name)
      .aggregate<{
        series: string;
        metric: string;
        tags: Record<string, string>;
        start: Date;
        fields: string[];
      }>([
        { $match: filter },
        { $limit: budget },
        {
          $project: {
            _id: 0,
            series: 1,
            metric: 1,
            tags: 1,
            start: 1,
            fields: { $map: { input: { $objectToArray: '$f' }, in: '$$this.k' } },
          },
        },
      ])
      .toArray();
    examined += rows.length;
    if (rows.length === budget) truncated = true;
    for (const row of rows) {
      const seen = found.get(row.series) ?? {
        series: row.series,
        metric: row.metric,
        tags: row.tags,
        fields: [],
        lastSlotMs: 0,
        fieldSet: new Set<string>(),
      };
      for (const name of row.fields) seen.fieldSet.add(name);
      seen.lastSlotMs = Math.max(seen.lastSlotMs, row.start.getTime());
      found.set(row.series, seen);
    }
  }
  const all = [...found.values()].sort((a, b) =>
    a.series < b.series ? -1 : a.series > b.series ? 1 : 0,
  );
  return {
    level,
    examined,
    truncated: truncated || all.length > query.limit,
    series: all
      .slice(0, query.limit)
      .map(({ fieldSet, ...info }) => ({ ...info, fields: [...fieldSet].sort() })),
  };
}
