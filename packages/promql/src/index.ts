export type { Expr, Matcher, MatchOp, RangeFunction, Selector } from './ast.js';
export { RANGE_FUNCTIONS, AGGREGATIONS } from './ast.js';
export { parsePromQL } from './parse.js';
export {
  CEILINGS,
  DEFAULT_QUERY_BOUNDS,
  checkShape,
  overBound,
  type Bound,
  type QueryBounds,
} from './bounds.js';
export { anchored, matchesAll, matchesValue, type PromRegex } from './matchers.js';
export { CUT_CHARS, cut } from './cut.js';
export { evaluate, typeOf, LOOKBACK_MS, type Evaluation } from './evaluate.js';
export { foldWindows, type FoldedWindows } from './fold.js';
export { prometheusQuantile, windowQuantile } from './quantile.js';
export { prometheusVariance, windowVariance } from './spread.js';
export { labelName, labelOfTag, labelsKey, labelsOf, metricName } from './names.js';
export { PromQLError, PromQLErrorCode, PromErrorType, isPromQLError } from './promql-error.js';
export type { PointsRequest, SampleSource, SeriesPoints, WidthPoint } from './samples.js';
export type { Value, VectorSeries } from './value.js';
export { NATIVE_WIDTHS_MS, alignDown, chooseWidth } from './width.js';
export {
  MAX_INSTANT_MS,
  MAX_POINTS_PER_SERIES,
  MIN_INSTANT_MS,
  parseTime,
  rangeTimes,
} from './http-params.js';
export { formatSampleValue, instantData, rangeData, type QueryData } from './prometheus-json.js';
export { formatDurationMs, parseDurationMs } from './duration.js';
