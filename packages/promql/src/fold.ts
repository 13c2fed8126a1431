import type { RangeFunction } from './ast.js';
import type { WidthPoint } from './samples.js';

/**
 * Each window [end − rangeMs, end) of one series' points folded by `fn`: `null` where the window
 * holds no tick. `ends` must not decrease. Counts and sums add the stored counts and sums, min and
 * max the stored ones, and last is the last interval's last tick, so over whole intervals the
 * result is what Prometheus would compute from every raw sample.
 */
export function foldWindows(
  points: readonly WidthPoint[],
  ends: readonly number[],
  rangeMs: number,
  fn: RangeFunction,
): (number | null)[] {
  const out: (number | null)[] = [];
  let lo = 0;
  let hi = 0;
  for (const end of ends) {
    const start = end - rangeMs;
    while (hi < points.length && points[hi]!.t < end) hi += 1;
    while (lo < hi && points[lo]!.t < start) lo += 1;
    out.push(lo < hi ? foldRun(points, lo, hi, fn) : null);
  }
  return out;
}

function foldRun(
  points: readonly WidthPoint[],
  lo: number,
  hi: number,
  fn: RangeFunction,
): number | null {
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
