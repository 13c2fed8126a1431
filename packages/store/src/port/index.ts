export type { StoreCapabilities } from './capabilities.js';
export type { ReadSession } from './read-session.js';
export type {
  BucketPart,
  BucketReads,
  BucketScope,
  FieldSlot,
  MetricDensity,
  MetricPartQuery,
  MetricRow,
  NewestBucket,
  PartQuery,
  SeriesRow,
  SlotRangeQuery,
  SubSlotValue,
} from './bucket-reads.js';
export type {
  ApplyStats,
  BucketWrites,
  PartitionTarget,
  PolicySource,
  RollupWriter,
  WriterOptions,
  WriterStats,
} from './bucket-writes.js';
export type { BucketRecord, BucketSpan, PartitionBuckets, Partitions } from './partitions.js';
export type { Finality, WatermarkState } from './finality.js';
export type { RetentionRun, ShellRequest, ShellSeries, Upkeep } from './upkeep.js';
export type {
  CleanupOptions,
  History,
  HistoryRun,
  RunStart,
  RunState,
  ShadowPartition,
  SwapResult,
} from './history.js';
export type { CollectionStorage, StorageStats } from './storage-stats.js';
export type { RollupStore } from './rollup-store.js';
