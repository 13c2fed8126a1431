export {
  SEGMENT_PREFIX,
  chainIdRange,
  dayOf,
  parseSegmentCollection,
  segmentCollection,
  partitionOfSegmentId,
  segmentId,
  seriesDayIdRange,
  seriesIdRange,
  type IdRange,
  type SegmentDocument,
  type SegmentPoint,
} from './segment-shape.js';
export {
  planSeries,
  type Append,
  type PlanOptions,
  type SegmentHead,
  type SeriesPlan,
} from './plan.js';
export {
  SegmentWriter,
  type SegmentApplyStats,
  type SeriesSplit,
  type SegmentWriterOptions,
} from './segment-writer.js';
export { SegmentConflictError, SegmentErrorCode } from './segment-error.js';
export {
  SEGMENT_INDEXES,
  ensureSegmentCollection,
  listSegmentDays,
} from './segment-collections.js';
export {
  RawPointsErrorCode,
  readRawPoints,
  type RawPointsLimits,
  type RawPointsQuery,
  type RawPointsResult,
} from './read-points.js';
export {
  segmentDayRange,
  segmentRetentionPlan,
  segmentRetentionVerdict,
  type SegmentDay,
  type SegmentRetentionPolicy,
  type SegmentRetentionVerdict,
} from './retention.js';
