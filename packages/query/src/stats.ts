import {
  addExactValue,
  mergeBins,
  quantilesOfBins,
  type Aggregate,
  type SketchBins,
} from '@tickertape/buckets';
import { QueryError, QueryErrorCode } from './query-error.js';

/*
 * The answers beyond count, sum, min, max, first and last — spread, weighted average and
 * quantiles — and how many ticks each is computed over. Their parts (Σx², Σx·w and Σw, sketch
 * bins) are optional in the stored aggregates: buckets written before they existed lack them, a
 * compact sub-slot holding more than one tick keeps only its count and sum, and only metrics the
 * level policy sketches or weights carry bins or weights. A stat is computed over the ticks whose
 * parts carry it and never guessed for the rest: `coverage` says how many of the n that is.
 */

/** The mergeable parts behind the stats, each with the ticks it covers. */
export interface StatParts {
  spread: { n: number; sum: number; sq: number };
  weighted: { n: number; xw: number; w: number };
  sketch: { n: number; bins: SketchBins };
}

export const emptyParts = (): StatParts => ({
  spread: { n: 0, sum: 0, sq: 0 },
  weighted: { n: 0, xw: 0, w: 0 },
  sketch: { n: 0, bins: {} },
});

/**
 * Adds one aggregate's parts to `into` (in place; the aggregate is never written to: it may be a
 * cached bucket's). An aggregate of one tick is that tick exactly (its sum), so it covers the
 * spread and the sketch even without their parts: the compact sub-slots of a metric at a tick a
 * second or a minute.
 */
export function addAggregate(
  into: StatParts,
  agg: Aggregate,
  take: { sketch: boolean } = { sketch: true },
): void {
  if (agg.n <= 0) return;
  const exact = agg.n === 1 ? agg.sum : undefined;
  if (agg.sq !== undefined) addSpread(into, agg.n, agg.sum, agg.sq);
  else if (exact !== undefined) addSpread(into, 1, exact, exact * exact);
  if (agg.xw !== undefined && agg.w !== undefined) {
    // A bucket written before `wn` existed: taken to have weighed all its ticks.
    into.weighted.n += agg.wn ?? agg.n;
    into.weighted.xw += agg.xw;
    into.weighted.w += agg.w;
  }
  if (take.sketch) addSketch(into, agg);
}

function addSpread(into: StatParts, n: number, sum: number, sq: number): void {
  into.spread.n += n;
  into.spread.sum += sum;
  into.spread.sq += sq;
}

/** The sketch part of one aggregate alone (for a bucket whose totals carry no sketch). */
export function addSketch(into: StatParts, agg: Pick<Aggregate, 'n' | 'sum' | 'q'>): void {
  if (agg.n <= 0) return;
  if (agg.q !== undefined) {
    // The bins' own count: a sketch begun after some of the slot's ticks covers fewer than n.
    into.sketch.n += mergeBins(into.sketch.bins, agg.q);
  } else if (agg.n === 1) {
    addExactValue(into.sketch.bins, agg.sum);
    into.sketch.n += 1;
  }
}

/** A compact sub-slot's parts: exact when it holds one tick, uncovered otherwise. */
export function addCompact(into: StatParts, n: number, sum: number): void {
  if (n !== 1) return;
  addSpread(into, 1, sum, sum * sum);
  addExactValue(into.sketch.bins, sum);
  into.sketch.n += 1;
}

/** `from` added to `into` (in place). */
export function mergeParts(into: StatParts, from: StatParts): void {
  addSpread(into, from.spread.n, from.spread.sum, from.spread.sq);
  into.weighted.n += from.weighted.n;
  into.weighted.xw += from.weighted.xw;
  into.weighted.w += from.weighted.w;
  mergeBins(into.sketch.bins, from.sketch.bins);
  into.sketch.n += from.sketch.n;
}

/**
 * Ticks each stat of an answer is computed over, beside its `n`: all n when every part behind it
 * carried what the stat needs; fewer where some did not (old buckets, compact sub-slots of several
 * ticks, metrics not sketched or weighted); 0 when none did, and the stat is then null. `sketch`
 * only when quantiles were asked for; `weighted` only for a field the policy weights.
 */
export interface Coverage {
  spread: number;
  sketch?: number;
  weighted?: number;
}

/** The weighted average of a field the policy weights by `by` (e.g. VWAP: price by volume). */
export interface Weighted {
  by: string;
  /** Σ(x·w)/Σw over the covered ticks; null without any (or when Σw is 0). */
  avg: number | null;
}

/** The stats of one row, point or candle, as every answer carries them. */
export interface Stats {
  /** Population variance and standard deviation (as Prometheus' stdvar/stddev_over_time). */
  variance: number | null;
  stddev: number | null;
  /** One value per φ asked for, keyed by `quantileName(φ)` (`q0.85`); null where not covered. */
  quantiles?: Record<string, number | null>;
  weighted?: Weighted;
  coverage: Coverage;
}

/** What a read asks of the stats beyond spread. */
export interface StatsQuery {
  /** φ in [0, 1], checked by `checkQuantiles`. */
  quantiles?: readonly number[];
  /** The field's weight field, when the policy weights it for the series' metric. */
  weight?: string;
}

/**
 * The column and key of a quantile: `q` and φ as JavaScript prints it (`q0.5`, `q0.85`,
 * `q0.999`, `q1`), so `0.50` and `0.5` name one column.
 */
export const quantileName = (phi: number): string => `q${String(phi)}`;

/** At most this many φ per read: each is a column. */
export const MAX_QUANTILES = 16;

/** The φ asked for, each once, in the order given; refuses a φ outside [0, 1]. */
export function checkQuantiles(phis: readonly number[]): number[] {
  for (const phi of phis)
    if (!Number.isFinite(phi) || phi < 0 || phi > 1)
      throw new QueryError(
        QueryErrorCode.InvalidQuantile,
        `a quantile is a number φ in [0, 1] (0.5 the median, 0.99 the 99th percentile), not ${String(phi)}`,
      );
  const unique = [...new Set(phis)];
  if (unique.length > MAX_QUANTILES)
    throw new QueryError(
      QueryErrorCode.InvalidQuantile,
      `${unique.length} quantiles asked for; at most ${MAX_QUANTILES}`,
    );
  return unique;
}

/**
 * The stats of `n` ticks from their parts. Variance is Σx²/n − mean², clamped at 0 (rounding may
 * take it just below); its conditioning is docs/data-layout.md's. A quantile answered from every
 * tick (sketch coverage = n) is clamped to [min, max], where the true value lies; each is within
 * the largest α of the sketch's bins (the metric's, 1 % by default: sketchAlphaOf) of the value at
 * its rank.
 */
export function statsOf(
  n: number,
  parts: StatParts,
  query: StatsQuery,
  range?: { min: number; max: number },
): Stats {
  const { spread, weighted, sketch } = parts;
  let variance: number | null = null;
  if (spread.n > 0) {
    const mean = spread.sum / spread.n;
    variance = Math.max(0, spread.sq / spread.n - mean * mean);
  }
  const coverage: Coverage = { spread: spread.n };
  const stats: Stats = {
    variance,
    stddev: variance === null ? null : Math.sqrt(variance),
    coverage,
  };
  if (query.quantiles !== undefined && query.quantiles.length > 0) {
    coverage.sketch = sketch.n;
    const bounds = sketch.n === n ? range : undefined;
    const values = sketch.n > 0 ? quantilesOfBins(sketch.bins, query.quantiles) : [];
    stats.quantiles = Object.fromEntries(
      query.quantiles.map((phi, i) => {
        const value = values[i];
        if (value === undefined) return [quantileName(phi), null];
        return [
          quantileName(phi),
          bounds ? Math.min(bounds.max, Math.max(bounds.min, value)) : value,
        ];
      }),
    );
  }
  if (query.weight !== undefined) {
    coverage.weighted = weighted.n;
    stats.weighted = {
      by: query.weight,
      avg: weighted.n > 0 && weighted.w !== 0 ? weighted.xw / weighted.w : null,
    };
  }
  return stats;
}

/** The stats of nothing: a series without ticks in a window. */
export const noStats = (query: StatsQuery): Stats => statsOf(0, emptyParts(), query);
