import type { Sketch } from '@tickertape/buckets';
import type { Matcher } from './ast.js';

/** One interval of one series' field: what a bucket or a bucket's sub-slot keeps. */
export interface WidthPoint {
  /** Start of the interval (epoch ms). */
  t: number;
  n: number;
  sum: number;
  min: number;
  max: number;
  /** The interval's first and last tick values (event time, then offset). */
  first: number;
  last: number;
  /**
   * Σx² of the interval's ticks, where the bucket keeps it (stddev/stdvar). Not needed when n = 1:
   * the one tick is `sum`.
   */
  sq?: number;
  /**
   * The interval's quantile sketch, where the metric's policy keeps one (quantile_over_time); it
   * answers for the interval only when it counts all n ticks. Not needed when n = 1.
   */
  q?: Sketch;
}

export interface SeriesPoints {
  /** `__name__` and the tags as labels. */
  labels: Record<string, string>;
  /** Points of the requested width, in time order, intervals with ticks only. */
  points: readonly WidthPoint[];
}

export interface PointsRequest {
  fromMs: number;
  toMs: number;
  widthMs: number;
}

/**
 * Where the evaluator's data comes from: the API binds it to the rollup reader. `read` refuses
 * (throws) before reading when the selection or the read is over budget.
 */
export interface SampleSource {
  /** Native widths some running level serves (see NATIVE_WIDTHS_MS). */
  readonly widths: readonly number[];
  read(
    matchers: readonly Matcher[],
    request: PointsRequest,
  ): Promise<{ series: SeriesPoints[]; openLevels: readonly string[] }>;
}
