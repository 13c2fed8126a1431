export {
  applyFlush,
  type ApplyStats,
  type CollectionTarget,
  type EnsureCollection,
} from './apply.js';
export { PARTITION_INDEXES, ensurePartition, listPartitionNames } from './partitions.js';
export { applyRetention, type RetentionRun } from './retention.js';
export { RollupWriter, type WriterStats } from './rollup-writer.js';
export { StoreErrorCode, StoreWriteError } from './store-error.js';
export {
  WATERMARKS_COLLECTION,
  advanceWatermarks,
  bumpGeneration,
  readWatermarkState,
  readWatermarks,
  type WatermarkState,
} from './watermarks.js';
export { insertShells, recentSeries } from './shells.js';
export { isTransientMongoError } from './transient.js';
export {
  HISTORY_RUNS_COLLECTION,
  listRuns,
  startRun,
  updateRun,
  type HistoryRun,
  type RunStart,
  type RunState,
} from './history-runs.js';
export {
  SHADOW_SWAPS_COLLECTION,
  cleanupReplaced,
  prepareShadow,
  replacedCollectionOf,
  seedShadow,
  serverRenamesSafely,
  shadowPlan,
  swapShadow,
  type CleanupOptions,
  type ShadowPartition,
  type SwapResult,
} from './shadow.js';
export { ShadowError, ShadowErrorCode } from './shadow-error.js';
export {
  isRunId,
  newRunId,
  parseShadowName,
  shadowCollectionName,
  type ShadowKind,
} from './shadow-names.js';
export {
  LEVEL_POLICY_COLLECTION,
  LevelPolicySource,
  changeLevelPolicy,
  readLevelPolicy,
} from './level-policy.js';
export { metricDensities } from './mongo/reads/metric-densities.js';
// The port's read side (issue 35; the rest of the port's names are exported with store-mongo).
export type {
  BucketPart,
  BucketReads,
  BucketScope,
  FieldSlot,
  Finality,
  MetricDensity,
  MetricPartQuery,
  MetricRow,
  NewestBucket,
  PartQuery,
  ReadSession,
  RollupStore,
  SeriesRow,
  SlotRangeQuery,
  StoreCapabilities,
  SubSlotValue,
  Upkeep,
} from './port/index.js';
export {
  BucketPartition,
  bucketPartition,
  type BucketFindOptions,
  type BucketRecord,
} from './bucket-partition.js';
export { aggregatesOf } from './layout/aggregates.js';
export { MongoBucketReads } from './mongo/bucket-reads.js';
export { mongoSegmentStore } from './mongo/segments/index.js';
export { createMemoryStore } from './memory/memory-store.js';
