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
export {
  SegmentBudgetError,
  SegmentConflictError,
  SegmentErrorCode,
  isSegmentBudgetError,
} from './segment-error.js';
export {
  SEGMENT_INDEXES,
  ensureSegmentCollection,
  listSegmentDays,
} from './segment-collections.js';
export {
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
export { applySegmentRetention, type SegmentRetentionRun } from './apply-retention.js';
export { scanSegmentDay } from './scan.js';
