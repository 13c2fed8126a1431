import { ceilTo, earlier, floorTo, later, type Aggregate, type Level } from '@tickertape/buckets';
import { aggregatesOf, type FieldSlot, type RollupStore } from '@tickertape/store';
import { coverUnitMs, hasAggregateSubSlots, planCover, type CoverPiece } from './cover.js';
import type { SlotRead } from './final-bucket-cache.js';
import {
  beginReads,
  checkBudget,
  checkName,
  checkRange,
  checkSeries,
  type ReaderContext,
} from './limits.js';
import { QueryError, QueryErrorCode } from './query-error.js';
import {
  addAggregate,
  addSketch,
  checkQuantiles,
  emptyParts,
  noStats,
  statsOf,
  type StatParts,
  type Stats,
  type StatsQuery,
} from './stats.js';
import type { FinalityView } from './watermark-view.js';

export interface WindowQuery {
  series: readonly string[];
  field: string;
  fromMs: number;
  toMs: number;
  /** φ in [0, 1]: the quantiles of each series' values over the window. */
  quantiles?: readonly number[];
}

/** What the stats of each row need besides the ticks: the φ asked and the series' weight field. */
export interface WindowStatsQuery {
  quantiles?: readonly number[];
  /** The field's weight field for a series' metric (the level policy's), if it has one. */
  weightOf?: (series: string) => string | undefined;
}

/**
 * One series' totals over the window; `null`s where it had no observation (a gap, not a zero).
 * The stats (spread, quantiles, weighted average) say how many ticks they cover (stats.ts).
 */
export interface WindowRow extends Stats {
  series: string;
  n: number;
  sum: number;
  avg: number | null;
  min: number | null;
  max: number | null;
  /** Earliest and latest observation in the window, by event time then offset. */
  first: { t: number; v: number } | null;
  last: { t: number; v: number } | null;
  /** Whether every bucket part behind the row is final. */
  final: boolean;
}

export interface WindowResult {
  field: string;
  /** The window actually summed: the request rounded out to whole minutes (or the finest unit). */
  fromMs: number;
  toMs: number;
  rows: WindowRow[];
  /** The bucket parts summed per series, e.g. minutes 55-59 of hour 10 and 0-4 of hour 11. */
  pieces: CoverPiece[];
  /** Buckets read to answer, for every series together (from memory or the store). */
  examined: number;
  /** Levels of the parts that are not final yet: none when the whole window is final. */
  openLevels: Level[];
}

/** Two aggregates of one field over disjoint spans as one (their n, sum, min, max, first, last). */
function combined(into: Aggregate | undefined, agg: Aggregate): Aggregate {
  if (!into)
    return { n: agg.n, sum: agg.sum, min: agg.min, max: agg.max, first: agg.first, last: agg.last };
  return {
    n: into.n + agg.n,
    sum: into.sum + agg.sum,
    min: Math.min(into.min, agg.min),
    max: Math.max(into.max, agg.max),
    first: earlier(into.first, agg.first),
    last: later(into.last, agg.last),
  };
}

/**
 * Count, sum, average, min, max, first and last of one field over [from, to) for many series at
 * once — the seed's "10-minute average speed of 50 sensors". The window is covered by bucket
 * totals and sub-slot runs (see `planCover`), each read for all series with one `_id` lookup,
 * so a 10-minute window reads one or two hour buckets per series.
 */
export async function windowAggregate(
  store: RollupStore,
  ctx: ReaderContext,
  query: WindowQuery,
  weightOf?: (series: string) => string | undefined,
): Promise<WindowResult> {
  checkRange(query.fromMs, query.toMs);
  const quantiles = checkQuantiles(query.quantiles ?? []);
  checkName('field', query.field);
  const series = [...new Set(query.series)];
  if (series.length === 0)
    throw new QueryError(QueryErrorCode.InvalidSeries, 'name at least one series');
  if (series.length > ctx.limits.maxSeries)
    throw new QueryError(
      QueryErrorCode.TooManySeries,
      `${series.length} series requested; the limit is ${ctx.limits.maxSeries}`,
    );
  for (const key of series) checkSeries(key);
  const { fromMs, toMs, pieces } = planWindow(ctx, query.fromMs, query.toMs);
  checkBudget(pieces.length * series.length, ctx, `a window over ${series.length} series`);

  const scope = await beginReads(store, ctx);
  try {
    const { view, session } = scope;
    // Every piece at once: the seed's hot query is latency-bound.
    const read = await Promise.all(
      pieces.map((piece) => {
        const readPart = (keys: readonly string[], whole: boolean) =>
          store.readPart({ part: piece, series: keys, field: query.field, whole }, session);
        if (!ctx.cache || !view.isFinal(piece.level, piece.start))
          return readPart(series, quantiles.length > 0 && sketchesBelow(piece));
        return ctx.cache.read(finalSlot(piece, query.field, view), { series }, (missing) =>
          readPart(missing ?? series, true),
        );
      }),
    );
    return sumPieces({ field: query.field, fromMs, toMs, pieces }, read, series, view, {
      quantiles,
      ...(weightOf ? { weightOf } : {}),
    });
  } finally {
    await scope.end();
  }
}

/**
 * A bucket's totals whose sketch is the merge of its sub-slots' (hour and day buckets keep one
 * sketch per minute or hour, not one for the whole slot: docs/data-layout.md). With quantiles,
 * such a piece is read whole: the totals for everything else, the sub-slots for the sketch.
 */
export const sketchesBelow = (piece: CoverPiece): boolean =>
  piece.sub === undefined && hasAggregateSubSlots(piece.level);

/** Adds the sketch of a bucket's sub-slots, for totals that carry none. */
function addSubSlotSketches(parts: StatParts, slot: FieldSlot): void {
  for (const value of slot.subSlots) {
    if (value.kind === 'aggregate') addSketch(parts, value.aggregate);
    else if (value.kind === 'compact') addSketch(parts, { n: value.n, sum: value.sum });
  }
}

/** A final piece's slot as the cache keys it. */
export function finalSlot(piece: CoverPiece, field: string, view: FinalityView): SlotRead {
  return {
    level: piece.level,
    start: piece.start,
    field,
    generation: view.generation(piece.level),
  };
}

/** The window rounded out to whole cover units, with its pieces. */
export function planWindow(
  ctx: ReaderContext,
  fromMs: number,
  toMs: number,
): { fromMs: number; toMs: number; pieces: CoverPiece[] } {
  const unit = coverUnitMs(ctx.levels);
  const from = floorTo(fromMs, unit);
  const to = ceilTo(toMs, unit);
  return { fromMs: from, toMs: to, pieces: planCover(from, to, ctx.levels) };
}

/**
 * Adds up each series' parts of the pieces read (`read[i]` = the buckets of `pieces[i]`) into
 * one row per series, in the order given; buckets of other series are ignored.
 */
export function sumPieces(
  window: { field: string; fromMs: number; toMs: number; pieces: CoverPiece[] },
  read: readonly (readonly FieldSlot[])[],
  series: readonly string[],
  finality: FinalityView,
  statsQuery: WindowStatsQuery = {},
): WindowResult {
  const { pieces } = window;
  const quantiles = statsQuery.quantiles ?? [];
  const rows = new Map<string, { aggregate?: Aggregate; parts: StatParts; final: boolean }>(
    series.map((key) => [key, { parts: emptyParts(), final: true }]),
  );
  let examined = 0;
  const openLevels = new Set<Level>();
  pieces.forEach((piece, i) => {
    const docs = read[i] ?? [];
    examined += docs.length;
    const final = finality.isFinal(piece.level, piece.start);
    if (!final) openLevels.add(piece.level);
    for (const key of series) rows.get(key)!.final &&= final;
    for (const slot of docs) {
      const row = rows.get(slot.series);
      if (!row) continue;
      const below = quantiles.length > 0 && sketchesBelow(piece) && slot.totals?.q === undefined;
      for (const agg of aggregatesOf(piece, slot)) {
        if (agg.n <= 0) continue;
        row.aggregate = combined(row.aggregate, agg);
        // Without quantiles asked, no sketch is merged: it is the costliest part to add up.
        addAggregate(row.parts, agg, { sketch: quantiles.length > 0 && !below });
      }
      if (below) addSubSlotSketches(row.parts, slot);
    }
  });
  return {
    ...window,
    examined,
    openLevels: [...openLevels],
    rows: series.map((key) => {
      const { aggregate: a, parts, final } = rows.get(key)!;
      const weight = statsQuery.weightOf?.(key);
      const asked: StatsQuery = { quantiles, ...(weight === undefined ? {} : { weight }) };
      if (!a)
        return {
          series: key,
          n: 0,
          sum: 0,
          avg: null,
          min: null,
          max: null,
          first: null,
          last: null,
          ...noStats(asked),
          final,
        };
      return {
        series: key,
        n: a.n,
        sum: a.sum,
        avg: a.sum / a.n,
        min: a.min,
        max: a.max,
        first: { t: a.first.t, v: a.first.v },
        last: { t: a.last.t, v: a.last.v },
        ...statsOf(a.n, parts, asked, a),
        final,
      };
    }),
  };
}

/** The last `minutes` whole minutes up to and including the one holding `nowMs`. */
export function lastMinutes(nowMs: number, minutes: number): { fromMs: number; toMs: number } {
  const toMs = floorTo(nowMs, 60_000) + 60_000;
  return { fromMs: toMs - minutes * 60_000, toMs };
}
