import type { RangeFunction } from './ast.js';
import { SlidingQuantile } from './quantile.js';
import type { WidthPoint } from './samples.js';
import { windowVariance } from './spread.js';

export interface FoldedWindows {
  /** One per end: `null` where the window holds no tick, or where `unanswered` counts it. */
  values: (number | null)[];
  /**
   * Windows that hold ticks whose parts cannot answer the function (several ticks in one bucket
   * without a Σx² or a sketch of them all): left out, never estimated.
   */
  unanswered: number;
}

/**
 * Each window [end − rangeMs, end) of one series' points folded by `fn`. `ends` must not
 * decrease; `phis` is quantile_over_time's φ at each end. Counts and sums add the stored counts
 * and sums, min and max the stored ones, last is the last interval's last tick, the spread merges
 * the intervals' n, Σx and Σx² (spread.ts) and quantiles their values or sketches (quantile.ts):
 * over whole intervals, what Prometheus computes from every raw sample (quantiles from sketches
 * within α of it).
 */
export function foldWindows(
  points: readonly WidthPoint[],
  ends: readonly number[],
  rangeMs: number,
  fn: RangeFunction,
  phis?: readonly number[],
): FoldedWindows {
  const values: (number | null)[] = [];
  let unanswered = 0;
  let lo = 0;
  let hi = 0;
  const sketch = fn === 'quantile_over_time' ? new SlidingQuantile() : undefined;
  ends.forEach((end, i) => {
    const start = end - rangeMs;
    for (; hi < points.length && points[hi]!.t < end; hi++) sketch?.enter(points[hi]!);
    for (; lo < hi && points[lo]!.t < start; lo++) sketch?.leave(points[lo]!);
    const value = foldRun(points, lo, hi, fn, phis?.[i] ?? NaN, sketch);
    if (value === undefined) unanswered += 1;
    values.push(value ?? null);
  });
  return { values, unanswered };
}

/** `null`: no tick in the window; `undefined`: ticks the parts cannot answer `fn` for. */
function foldRun(
  points: readonly WidthPoint[],
  lo: number,
  hi: number,
  fn: RangeFunction,
  phi: number,
  sketch: SlidingQuantile | undefined,
): number | null | undefined {
  switch (fn) {
    case 'stdvar_over_time':
    case 'stddev_over_time':
    case 'quantile_over_time': {
      const ticked = points.slice(lo, hi).filter((p) => p.n > 0);
      if (ticked.length === 0) return null;
      if (sketch) return sketch.at(phi, ticked);
      const variance = windowVariance(ticked);
      return fn === 'stdvar_over_time' || variance === undefined ? variance : Math.sqrt(variance);
    }
  }
  let n = 0;
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  let first: number | null = null;
  let last: number | null = null;
  for (let i = lo; i < hi; i++) {
    const point = points[i]!;
    if (point.n <= 0) continue;
    n += point.n;
    sum += point.sum;
    if (point.min < min) min = point.min;
    if (point.max > max) max = point.max;
    first ??= point.first;
    last = point.last;
  }
  if (n === 0) return null;
  switch (fn) {
    case 'count_over_time':
      return n;
    case 'sum_over_time':
      return sum;
    case 'avg_over_time':
      return sum / n;
    case 'min_over_time':
      return min;
    case 'max_over_time':
      return max;
    case 'last_over_time':
      return last;
    case 'first_over_time':
      return first;
  }
}
