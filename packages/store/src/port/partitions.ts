import type { PartitionRange } from '@tickertape/buckets';

/** A bucket document whole, as stored: what history tools copy and compare and the checker reads. */
export type BucketRecord = { _id: string } & Record<string, unknown>;

/** Buckets whose slot starts in `[fromMs, toMs)`; `withTicks` leaves out shells and empty ones. */
export interface BucketSpan {
  fromMs: number;
  toMs: number;
  withTicks?: boolean;
}

/**
 * One partition's (or shadow's) buckets, whole: the handle history and the checker work through.
 * Readers of answers use `BucketReads` instead.
 */
export interface PartitionBuckets {
  readonly name: string;
  count(span?: BucketSpan): Promise<number>;
  /** Streamed; in `_id` order (series, then slot) when `inIdOrder`. */
  scan(span?: BucketSpan, options?: { inIdOrder?: boolean }): AsyncIterable<BucketRecord>;
  /** Each bucket's id and tick count only (what a swap's tally needs of the live side). */
  scanCounts(span?: BucketSpan): AsyncIterable<{ _id: string; n: number }>;
  byIds(ids: readonly string[]): Promise<BucketRecord[]>;
  /** Writes these whole buckets over what the partition holds under their ids (or inserts them). */
  replace(records: readonly BucketRecord[]): Promise<void>;
  /** False when it was already gone. */
  drop(): Promise<boolean>;
}

export interface Partitions {
  /** Creates a partition with its indexes; true if this call created it. Safe to repeat and race. */
  ensurePartition(range: PartitionRange): Promise<boolean>;
  /** The live partitions present (shadows and replaced copies left out). */
  listPartitions(): Promise<PartitionRange[]>;
  /** Every bucket collection present: live partitions, shadows and replaced copies (history's plans). */
  listNames(): Promise<string[]>;
  /** A partition, shadow or replaced copy by name (it need not exist). */
  partition(name: string): PartitionBuckets;
}
