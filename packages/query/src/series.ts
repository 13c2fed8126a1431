import { LEVEL_SPECS, type Level } from '@tickertape/buckets';
import type { BucketScope, RollupStore } from '@tickertape/store';
import { checkBudget, checkMetricSelection, checkRange, type ReaderContext } from './limits.js';
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
 * (a day bucket per series per day) by metric and slot, and brings back only names: the store
 * lists each bucket's field names. Counts first, so a discovery that would scan too much is
 * refused before anything is read.
 */
export async function findSeries(
  store: RollupStore,
  ctx: ReaderContext,
  query: SeriesQuery,
): Promise<SeriesResult> {
  checkRange(query.fromMs, query.toMs);
  checkMetricSelection(query.metric, query.tags ?? {}, query.limit);
  const level = ctx.levels[ctx.levels.length - 1]!;
  const slots = Math.ceil((query.toMs - query.fromMs) / LEVEL_SPECS[level].slotMs);
  checkBudget(slots, ctx, `discovering series over ${slots} ${level} slots`);
  const scope: BucketScope = {
    level,
    fromMs: query.fromMs,
    toMs: query.toMs,
    ...(query.metric !== undefined ? { metric: query.metric } : {}),
    ...(query.tags !== undefined ? { tags: query.tags } : {}),
  };
  const examined = await store.countBuckets(scope);
  if (examined > ctx.limits.maxDocuments)
    throw new QueryError(
      QueryErrorCode.ReadBudgetExceeded,
      `discovery would read ${examined} documents; the limit is ${ctx.limits.maxDocuments}: narrow the range or filter by metric or tags`,
    );
  // One more than the limit tells whether more series match.
  const found = examined === 0 ? [] : await store.findSeries(scope, query.limit + 1);
  return {
    level,
    examined,
    truncated: found.length > query.limit,
    series: found.slice(0, query.limit),
  };
}
