import type { ClientSession, Db, Document, Filter, Sort } from 'mongodb';
import type { StoredBucket } from './layout/stored-bucket.js';

const NAMESPACE_NOT_FOUND = 26;

/** A bucket document with every field it holds: what history tools copy, compare and rewrite. */
export type BucketRecord = Document & { _id: string };

export interface BucketFindOptions {
  /** Build it with `projectionOf`/`summaryProjection`, or name top-level fields. */
  projection?: Document;
  sort?: Sort;
  limit?: number;
  /** A reader's causally consistent session (see the query package's FinalitySource). */
  session?: ClientSession;
}

/**
 * One partition collection's buckets. Code outside this package reads, rewrites and drops
 * partitions through this (and writes ticks through `RollupWriter`), so the layout has one owner:
 * the field paths below the top level (`f.<field>.…`, `c`, `ap`) come from this package's
 * helpers, never from a caller's string.
 */
export class BucketPartition {
  constructor(
    private readonly db: Db,
    readonly name: string,
  ) {}

  private collection<T extends Document>() {
    return this.db.collection<T>(this.name);
  }

  count(filter: Filter<BucketRecord> = {}): Promise<number> {
    return this.collection<BucketRecord>().countDocuments(filter);
  }

  /** The distinct values of a top-level field (`metric`) among the buckets matching `filter`. */
  distinct(field: 'metric' | 'series', filter: Filter<BucketRecord> = {}): Promise<unknown[]> {
    return this.collection<BucketRecord>().distinct(field, filter);
  }

  /** The buckets matching `filter`, read whole into memory: bounded by `limit` or by the caller. */
  find<T extends Document = StoredBucket>(
    filter: Filter<BucketRecord>,
    options: BucketFindOptions = {},
  ): Promise<T[]> {
    let cursor = this.collection<BucketRecord>().find<T>(filter, {
      ...(options.projection ? { projection: options.projection } : {}),
      ...(options.session ? { session: options.session } : {}),
    });
    if (options.sort !== undefined) cursor = cursor.sort(options.sort);
    if (options.limit !== undefined) cursor = cursor.limit(options.limit);
    return cursor.toArray();
  }

  /** The buckets matching `filter`, streamed (`_id` order when `inIdOrder`). */
  scan<T extends Document = BucketRecord>(
    filter: Filter<BucketRecord> = {},
    options: { projection?: Document; inIdOrder?: boolean } = {},
  ): AsyncIterable<T> {
    const cursor = this.collection<BucketRecord>().find<T>(filter, {
      ...(options.projection ? { projection: options.projection } : {}),
    });
    return options.inIdOrder ? cursor.sort({ _id: 1 }) : cursor;
  }

  /** The buckets with these ids (whole documents), in no particular order. */
  byIds(ids: readonly string[]): Promise<BucketRecord[]> {
    return this.collection<BucketRecord>()
      .find({ _id: { $in: [...ids] } })
      .toArray();
  }

  aggregate<T extends Document>(pipeline: Document[]): Promise<T[]> {
    return this.collection<BucketRecord>().aggregate<T>(pipeline).toArray();
  }

  /** Writes these whole buckets over what the partition holds under their ids (or inserts them). */
  async replace(buckets: readonly BucketRecord[]): Promise<void> {
    if (buckets.length === 0) return;
    await this.collection<BucketRecord>().bulkWrite(
      buckets.map((doc) => ({
        replaceOne: { filter: { _id: doc._id }, replacement: doc, upsert: true },
      })),
      { ordered: false },
    );
  }

  /**
   * Drops the partition; false when it was already gone (a run next to another one: the outcome
   * wanted; MongoDB before 7.0 answers a drop of a missing collection with an error).
   */
  async drop(): Promise<boolean> {
    try {
      return await this.collection<BucketRecord>().drop();
    } catch (err) {
      if ((err as { code?: unknown }).code === NAMESPACE_NOT_FOUND) return false;
      throw err;
    }
  }
}

/** The partition collection `name` (a live partition, a shadow, a rebuild's source). */
export function bucketPartition(db: Db, name: string): BucketPartition {
  return new BucketPartition(db, name);
}
