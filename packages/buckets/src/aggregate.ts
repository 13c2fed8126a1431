import { earlier, later, type Mark } from './marks.js';

/** The totals kept for one numeric field over some span: sums and counts, never averages. */
export interface Aggregate {
  n: number;
  sum: number;
  min: number;
  max: number;
  first: Mark;
  last: Mark;
}

export function aggregateOf(mark: Mark): Aggregate {
  return { n: 1, sum: mark.v, min: mark.v, max: mark.v, first: mark, last: mark };
}

/** Adds one observation in place (the hot path folds thousands per flush). */
export function addMark(agg: Aggregate, mark: Mark): void {
  agg.n += 1;
  agg.sum += mark.v;
  if (mark.v < agg.min) agg.min = mark.v;
  if (mark.v > agg.max) agg.max = mark.v;
  agg.first = earlier(agg.first, mark);
  agg.last = later(agg.last, mark);
}
