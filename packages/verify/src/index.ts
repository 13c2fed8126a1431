export type { CheckedStore, Difference, DifferenceKind, TruthTick } from './truth.js';
export { recordId } from './truth.js';
export { compareDocuments, leaves, SUM_RELATIVE_TOLERANCE } from './compare-documents.js';
export { compareBuckets } from './compare-buckets.js';
export { compareSeriesSegments, type SegmentCheck } from './compare-segments.js';
export { expectedBuckets } from './reference-fold.js';
export { expectedFromFiner } from './reference-rollup.js';
export { expectedPoints, type ExpectedPoint, type SegmentRules } from './reference-segments.js';
export {
  reconcile,
  type DeadLetterEntry,
  type DecodedRecord,
  type LatenessBounds,
  type Reconciled,
} from './reconcile.js';
export { storedBuckets, storedSegments, WHOLE_TIME, type CheckedRange } from './stored.js';
export { NotCaughtUpError, VerifyErrorCode } from './verify-error.js';
export {
  readDeadLetters,
  verify,
  type CheckedTarget,
  type StoreSummary,
  type VerifyOptions,
  type VerifyReport,
} from './verify.js';
