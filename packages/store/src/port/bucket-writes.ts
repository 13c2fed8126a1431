import type { FoldInput, Level, LevelPolicy } from '@tickertape/buckets';

export interface ApplyStats {
  /** Buckets the flush touched (distinct per Kafka partition). */
  buckets: number;
  /** Update operations sent, including conflict retries. */
  operations: number;
  /** Bulk writes sent (one per partition per round). */
  bulkWrites: number;
  /** Buckets that had already absorbed some of the flush (replays). */
  conflicts: number;
}

export interface WriterStats extends ApplyStats {
  /** Ticks of metrics this level skips (the level policy): acknowledged, not written. */
  skipped: number;
}

/**
 * Where a live partition's buckets are written: the partition itself on the live path, its shadow
 * when a rebuild or a backfill prepares a replacement (docs/history.md). Takes and returns names.
 */
export type PartitionTarget = (partition: string) => string;

/** Where a writer takes the level policy from: read per flush (re-read every few seconds), or fixed. */
export interface PolicySource {
  current(): Promise<LevelPolicy>;
}

export interface WriterOptions {
  target?: PartitionTarget;
  /** Default: the stored level policy, re-read every few seconds. A rebuild passes one read once. */
  policy?: PolicySource;
}

/**
 * One level's writer: applies a flush exactly once (the guarded, commutative update of
 * docs/exactly-once.md), creating partitions on first use and following the level policy. Resolves
 * when every record is durably in its bucket; the caller commits offsets after that.
 */
export interface RollupWriter {
  readonly level: Level;
  apply(inputs: readonly FoldInput[]): Promise<WriterStats>;
}

export interface BucketWrites {
  writer(level: Level, options?: WriterOptions): RollupWriter;
}
