export {
  applyFlush,
  type ApplyStats,
  type CollectionTarget,
  type EnsureCollection,
} from './apply.js';
export { PARTITION_INDEXES, ensurePartition, listPartitionNames } from './partitions.js';
export { applyRetention, type RetentionRun } from './retention.js';
export { RollupWriter } from './rollup-writer.js';
export { StoreErrorCode, StoreWriteError } from './store-error.js';
export { WATERMARKS_COLLECTION, advanceWatermarks, readWatermarks } from './watermarks.js';
export { insertShells, recentSeries } from './shells.js';
export { isTransientMongoError } from './transient.js';
