export {
  RollupReader,
  candleOf,
  type AutoQuery,
  type CacheOptions,
  type ReaderStores,
  type Candle,
  type CandleResult,
  type LevelQuery,
  type SteppedQuery,
} from './reader.js';
export type { MetricInfo } from './metric-catalog.js';
export { DEFAULT_LIMITS, type Limits, type ReaderOptions } from './limits.js';
export { QueryError, QueryErrorCode, isBadQuery } from './query-error.js';
export { UnknownNameError, isUnknownName, nearest, type UnknownNames } from './unknown-names.js';
export {
  DEFAULT_MAX_POINTS,
  NICE_STEPS_MS,
  chooseResolution,
  levelResolution,
  pointCount,
  slotsInRange,
  sourceFor,
  type Detail,
  type Resolution,
  type Source,
} from './resolution.js';
export { coverUnitMs, planCover, type CoverPiece } from './cover.js';
export { findGaps, mergePoints, type AnsweredPoint, type Gap, type Point } from './points.js';
export {
  MAX_QUANTILES,
  addAggregate,
  checkQuantiles,
  emptyParts,
  mergeParts,
  quantileName,
  statsOf,
  type Coverage,
  type StatParts,
  type Stats,
  type StatsQuery,
  type Weighted,
} from './stats.js';
export type { RangeQuery, RangeResult } from './read-range.js';
export {
  lastMinutes,
  type WindowQuery,
  type WindowResult,
  type WindowRow,
  type WindowStatsQuery,
} from './window.js';
export type { MetricWindowQuery, MetricWindowResult } from './window-by-metric.js';
export type { SeriesInfo, SeriesQuery, SeriesResult } from './series.js';
export type { LevelStatus, StatusResult } from './status.js';
export type { RawPointsResult } from '@tickertape/segments';
export {
  FinalBucketCache,
  type CacheEvent,
  type FinalBucketCacheOptions,
} from './final-bucket-cache.js';
export { FinalitySource } from './finality-source.js';
export {
  FILL_MODES,
  fillPoints,
  fillRange,
  type FillMode,
  type FilledPoint,
  type FilledRangeResult,
  type SteppedPoint,
} from './fill.js';
export { isLocalStep, localSteps, onUtcGrid, stepGaps, type LocalStep } from './local-steps.js';
export { rangeSteps, windowInZone } from './local-range.js';
export {
  checkTimeZone,
  isTimeZone,
  localIso,
  wallToInstant,
  zoneRules,
  type Transition,
  type ZoneRules,
} from './time-zone.js';
export {
  MAX_INSTANT_MS,
  MIN_INSTANT_MS,
  TIME_DEFAULTS,
  LAST_FORMS,
  TIME_FORMS,
  defaultRange,
  isClockRelative,
  parseAbsoluteTime,
  parseLastArgument,
  parseTimeArgument,
  type TimeArgumentOptions,
} from './time-argument.js';
export { TAG_FORMS, parseTagArgument, parseTagArguments } from './tag-argument.js';
export { FinalityView } from './watermark-view.js';
