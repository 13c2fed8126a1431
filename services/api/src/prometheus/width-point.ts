import type { Sketch, SketchBins } from '@tickertape/buckets';
import type { WidthPoint } from '@tickertape/promql';
import type { Point } from '@tickertape/query';

/**
 * What a reader's point may carry beyond n, sum, min, max, open and close for the spread and the
 * quantiles, each only where its buckets keep it (docs/data-layout.md), in the shapes the read
 * side hands them over: the stored parts themselves (`sq`, `q`); the merged parts with the ticks
 * each covers (`parts`); or a point's own population variance with its coverage. All optional, so
 * the binding reads whichever a reader gives and leaves the rest to the evaluator's rule: a point
 * of several ticks without them is not answered, never guessed.
 */
export interface CarriedParts {
  sq?: number;
  q?: Sketch;
  parts?: {
    spread?: { n: number; sq: number };
    sketch?: { n: number; bins: SketchBins };
  };
  variance?: number | null;
  coverage?: { spread?: number };
}

/** A reader's point as the PromQL evaluator folds it. */
export function widthPointOf(point: Point & CarriedParts): WidthPoint {
  // A second written before the compact layout has no count: it cannot be summed.
  const n = point.n ?? 0;
  const sum = point.sum ?? 0;
  const sq = point.sq ?? spreadOf(point, n, sum);
  const q = point.q ?? (point.parts?.sketch?.n === n ? point.parts.sketch.bins : undefined);
  return {
    t: point.t,
    n,
    sum,
    min: point.min,
    max: point.max,
    first: point.open,
    last: point.close,
    ...(sq === undefined ? {} : { sq }),
    ...(q === undefined ? {} : { q }),
  };
}

/** Σx² of all n ticks, from parts that cover every one of them; undefined otherwise. */
function spreadOf(point: CarriedParts, n: number, sum: number): number | undefined {
  if (n <= 0) return undefined;
  if (point.parts?.spread?.n === n) return point.parts.spread.sq;
  // n·variance is the point's Σ(x − x̄)²; Σx² is that plus (Σx)²/n.
  if (typeof point.variance === 'number' && point.coverage?.spread === n)
    return n * point.variance + (sum * sum) / n;
  return undefined;
}
