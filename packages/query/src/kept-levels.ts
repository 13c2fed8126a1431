import type { Level, LevelPolicy } from '@tickertape/buckets';
import { parseSeriesKey } from '@tickertape/tick';
import { checkSeries, type ReaderContext } from './limits.js';
import { QueryError, QueryErrorCode } from './query-error.js';

/**
 * The reader's context narrowed to the levels that keep every one of `metrics` (the level
 * policy): a read then takes the finest level that holds the data — a metric without minute
 * buckets is drawn per minute from its hour buckets — and never mistakes a skipped level for a gap.
 */
export function keptContext(
  ctx: ReaderContext,
  policy: LevelPolicy,
  metrics: Iterable<string>,
  range?: { fromMs: number; toMs: number },
): ReaderContext {
  if (policy.isEmpty) return ctx;
  let levels: readonly Level[] = ctx.levels;
  for (const metric of new Set(metrics)) levels = policy.levelsFor(levels, metric, range);
  if (levels.length === ctx.levels.length) return ctx;
  if (levels.length === 0)
    throw new QueryError(
      QueryErrorCode.LevelSkipped,
      `no running level (${ctx.levels.join(', ')}) keeps all of ${[...new Set(metrics)].join(', ')} (level policy): ask for fewer metrics at once`,
    );
  return { ...ctx, levels };
}

export function metricOfSeries(series: string): string {
  checkSeries(series);
  return parseSeriesKey(series).metric;
}

/** An explicit level read of a metric the level skips: refused, naming the levels that keep it. */
export function checkLevelKept(level: Level, metric: string, ctx: ReaderContext): void {
  if (!ctx.levels.includes(level))
    throw new QueryError(
      QueryErrorCode.LevelSkipped,
      `level ${level} skips metric ${JSON.stringify(metric)} (level policy); it is kept at ${ctx.levels.join(', ')} — e.g. its minutes are in the hour level's sub-slots`,
    );
}
