import { ceilTo, floorTo, type Aggregate, type Mark } from '@tickertape/buckets';
import {
  addAggregate,
  addCompact,
  emptyParts,
  mergeParts,
  statsOf,
  type StatParts,
  type Stats,
  type StatsQuery,
} from './stats.js';

/**
 * One point of a series at some width: what a chart or a candle needs. Counts and sums travel
 * with it so that points merge exactly; `avg` is derived, never stored.
 */
export interface Point {
  /** Start of the point's interval (epoch ms, UTC). */
  t: number;
  /**
   * Observations in the interval. `null` only for seconds of minute buckets written before the
   * compact layout, which kept the last value of each second and not its count.
   */
  n: number | null;
  sum: number | null;
  min: number;
  max: number;
  /** Value of the earliest observation (event time, then offset). */
  open: number;
  /** Value of the latest observation. */
  close: number;
  avg: number;
  /** Whether every slot behind this point is final (the scheduler's watermark passed it). */
  final: boolean;
  /** With a time zone (`tz`): the end of the point's local step, exclusive (UTC epoch ms). */
  end?: number;
  /** With a time zone: the step's start in the zone's wall time, with its offset. */
  local?: string;
  /**
   * The parts spread, quantiles and weighted averages are computed from, merged with the point
   * (stats.ts); absent where nothing carries them. A read's answer carries the stats instead.
   */
  parts?: StatParts;
}

/**
 * A point as a read answers it: its stats computed, its parts left behind — unless the reader
 * keeps them for a caller that merges points further (`RangeReadOptions.keepParts`).
 */
export type AnsweredPoint = Point & Stats;

/** The point's stats for `query`; its min and max bound quantiles answered from every tick. */
export function answerPoint(point: Point, query: StatsQuery, keepParts = false): AnsweredPoint {
  const { parts, ...rest } = point;
  const stats = statsOf(point.n ?? 0, parts ?? emptyParts(), query, point);
  return { ...rest, ...stats, ...(keepParts && parts ? { parts } : {}) };
}

function partsOf(add: (parts: StatParts) => void): StatParts {
  const parts = emptyParts();
  add(parts);
  return parts;
}

export function pointOfAggregate(t: number, agg: Aggregate, final: boolean): Point {
  return {
    t,
    n: agg.n,
    sum: agg.sum,
    min: agg.min,
    max: agg.max,
    open: agg.first.v,
    close: agg.last.v,
    avg: agg.sum / agg.n,
    final,
    parts: partsOf((parts) => addAggregate(parts, agg)),
  };
}

/**
 * One compact sub-slot (a second of a minute bucket, a minute of a compact hour bucket): its count
 * and sum are exact. The compact form keeps no min, max, first or last per sub-slot, so those
 * are the sub-slot's mean — exact when it holds one tick, as a second does for a series at up to
 * one tick per second and a minute for one at a tick a minute (docs/data-layout.md).
 */
export function pointOfSecond(t: number, sum: number, n: number, final: boolean): Point {
  const avg = sum / n;
  const parts = partsOf((into) => addCompact(into, n, sum));
  return { t, n, sum, min: avg, max: avg, open: avg, close: avg, avg, final, parts };
}

/** A second of a minute bucket written before the compact layout: the last value seen in it. */
export function pointOfMark(t: number, mark: Mark, final: boolean): Point {
  return {
    t,
    n: null,
    sum: null,
    min: mark.v,
    max: mark.v,
    open: mark.v,
    close: mark.v,
    avg: mark.v,
    final,
  };
}

/** The parts of a group of points added up, if any of them has some. */
function mergedParts(group: readonly Point[]): StatParts | undefined {
  if (group.every((p) => p.parts === undefined)) return undefined;
  const parts = emptyParts();
  for (const p of group) if (p.parts) mergeParts(parts, p.parts);
  return parts;
}

/**
 * Merges time-ordered points into `stepMs`-wide points aligned to the epoch. Exact for counts and
 * sums (so averages), min, max, open and close of exact points, and for the stats' parts; where a
 * second's count is not known (old minute buckets) `avg` is the mean of the per-second values.
 */
export function mergePoints(points: readonly Point[], stepMs: number): Point[] {
  const merged: Point[] = [];
  let group: Point[] = [];
  const flush = () => {
    const head = group[0];
    if (!head) return;
    const known = group.every((p) => p.n !== null);
    const n = known ? group.reduce((total, p) => total + p.n!, 0) : null;
    const sum = known ? group.reduce((total, p) => total + p.sum!, 0) : null;
    merged.push({
      t: floorTo(head.t, stepMs),
      n,
      sum,
      min: Math.min(...group.map((p) => p.min)),
      max: Math.max(...group.map((p) => p.max)),
      open: head.open,
      close: group[group.length - 1]!.close,
      avg:
        n !== null && sum !== null
          ? sum / n
          : group.reduce((total, p) => total + p.avg, 0) / group.length,
      final: group.every((p) => p.final),
    });
    const parts = mergedParts(group);
    if (parts) merged[merged.length - 1]!.parts = parts;
    group = [];
  };
  for (const point of points) {
    const head = group[0];
    if (head && Math.floor(head.t / stepMs) !== Math.floor(point.t / stepMs)) flush();
    group.push(point);
  }
  flush();
  return merged;
}

export interface Gap {
  /** First instant without data (inclusive). */
  from: number;
  /** First instant with data again, or the end of the range (exclusive). */
  to: number;
}

/**
 * The runs of `stepMs` intervals inside [from, to) holding no point: periods with no tick,
 * reported as gaps rather than zeros.
 */
export function findGaps(
  points: readonly Point[],
  fromMs: number,
  toMs: number,
  stepMs: number,
): Gap[] {
  const gaps: Gap[] = [];
  let cursor = floorTo(fromMs, stepMs);
  const end = ceilTo(toMs, stepMs);
  for (const point of points) {
    if (point.t > cursor) gaps.push({ from: Math.max(cursor, fromMs), to: point.t });
    cursor = Math.max(cursor, point.t + stepMs);
  }
  if (cursor < end) gaps.push({ from: Math.max(cursor, fromMs), to: Math.min(end, toMs) });
  return gaps.filter((gap) => gap.from < gap.to);
}
