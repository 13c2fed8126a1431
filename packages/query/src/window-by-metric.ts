import type { FieldSlot, RollupStore } from '@tickertape/store';
import {
  beginReads,
  checkBudget,
  checkMetricSelection,
  checkName,
  checkRange,
  type ReaderContext,
} from './limits.js';
import { QueryError, QueryErrorCode } from './query-error.js';
import { checkQuantiles } from './stats.js';
import { finalSlot, planWindow, sketchesBelow, sumPieces, type WindowResult } from './window.js';

export interface MetricWindowQuery {
  metric: string;
  /** Every tag given must match exactly. */
  tags?: Readonly<Record<string, string>>;
  /** Most series summed: the first by key among those with data in the window's buckets. */
  limit: number;
  field: string;
  fromMs: number;
  toMs: number;
  /** φ in [0, 1]: the quantiles of each series' values over the window. */
  quantiles?: readonly number[];
}

export interface MetricWindowResult extends WindowResult {
  selected: {
    metric: string;
    tags: Record<string, string>;
    /** Series summed. */
    series: number;
    /** True when more series matched than `limit`. */
    truncated: boolean;
  };
}

/**
 * The seed's "10-minute average speed of 50 sensors" when the sensors are named by metric and
 * tags, in one pass: each cover piece's buckets are found by metric and slot, in series order
 * (the store's metric part reads), and the series are taken from those same buckets. So the read costs what the listed form costs — one or two hour buckets
 * per series — with no separate discovery scan.
 */
export async function windowByMetric(
  store: RollupStore,
  ctx: ReaderContext,
  query: MetricWindowQuery,
  weightOf?: (series: string) => string | undefined,
): Promise<MetricWindowResult> {
  checkRange(query.fromMs, query.toMs);
  const quantiles = checkQuantiles(query.quantiles ?? []);
  checkName('field', query.field);
  const tags = { ...query.tags };
  checkMetricSelection(query.metric, tags, query.limit);
  if (query.limit > ctx.limits.maxSeries)
    throw new QueryError(
      QueryErrorCode.TooManySeries,
      `limit ${query.limit} exceeds the series limit ${ctx.limits.maxSeries}`,
    );
  const window = planWindow(ctx, query.fromMs, query.toMs);
  // One more than the limit per piece tells whether more series match.
  const perPiece = query.limit + 1;
  checkBudget(
    window.pieces.length * perPiece,
    ctx,
    `a window over up to ${query.limit} series of ${query.metric}`,
  );

  const scope = await beginReads(store, ctx);
  let read: (readonly FieldSlot[])[];
  try {
    const { view, session } = scope;
    read = await Promise.all(
      window.pieces.map((piece) => {
        const readPart = (whole: boolean) =>
          store.readMetricPart(
            { part: piece, metric: query.metric, tags, field: query.field, whole, limit: perPiece },
            session,
          );
        if (!ctx.cache || !view.isFinal(piece.level, piece.start))
          return readPart(quantiles.length > 0 && sketchesBelow(piece));
        return ctx.cache.read(
          finalSlot(piece, query.field, view),
          { metric: query.metric, tags, limit: perPiece },
          () => readPart(true),
        );
      }),
    );
  } finally {
    await scope.end();
  }
  const finality = scope.view;

  // Each piece holds its first `limit + 1` series by key, so the first `limit` of their union
  // are complete in every piece: a piece that stopped early stopped past all of them.
  const matched = [...new Set(read.flatMap((docs) => docs.map((doc) => doc.series)))].sort();
  const series = matched.slice(0, query.limit);
  return {
    ...sumPieces({ field: query.field, ...window }, read, series, finality, {
      quantiles,
      ...(weightOf ? { weightOf } : {}),
    }),
    selected: {
      metric: query.metric,
      tags,
      series: series.length,
      truncated: matched.length > query.limit,
    },
  };
}
