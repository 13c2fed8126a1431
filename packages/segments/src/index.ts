export {
  SEGMENT_PREFIX,
  dayOf,
  parseSegmentCollection,
  segmentCollection,
  partitionOfSegmentId,
  segmentId,
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
export type {
  Chain,
  RawPointsLimits,
  RawPointsQuery,
  RawPointsResult,
  SegmentRetentionRun,
  SegmentStore,
  StoredHeads,
} from './segment-store.js';
export {
  segmentDayRange,
  segmentRetentionPlan,
  segmentRetentionVerdict,
  type SegmentDay,
  type SegmentRetentionPolicy,
  type SegmentRetentionVerdict,
} from './retention.js';
