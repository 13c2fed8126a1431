import type { Db, Filter } from 'mongodb';
import type { Dialect } from './capabilities.js';
import type { BucketRecord, BucketSpan, PartitionBuckets } from '../port/partitions.js';

const NAMESPACE_NOT_FOUND = 26;

/** The filter of a span: slot starts in `[fromMs, toMs)`, shells and empty buckets left out on request. */
export function spanFilter(span: BucketSpan | undefined): Filter<BucketRecord> {
  if (span === undefined) return {};
  return {
    start: { $gte: new Date(span.fromMs), $lt: new Date(span.toMs) },
    ...(span.withTicks === true ? { n: { $gt: 0 } } : {}),
  };
}

/**
 * One partition collection's (or shadow's) buckets, whole: what history copies and compares and
 * the checker reads. Documents travel as stored (dates as `Date`), so a copy written back through
 * `replace` is the bucket it was.
 */
export class MongoPartitionBuckets implements PartitionBuckets {
  constructor(
    private readonly db: Db,
    readonly name: string,
    private readonly dialect: Dialect = 'mongodb',
  ) {}

  private get collection() {
    return this.db.collection<BucketRecord>(this.name);
  }

  count(span?: BucketSpan): Promise<number> {
    return this.collection.countDocuments(spanFilter(span));
  }

  scan(span?: BucketSpan, options: { inIdOrder?: boolean } = {}): AsyncIterable<BucketRecord> {
    const cursor = this.collection.find(spanFilter(span));
    return options.inIdOrder === true ? cursor.sort({ _id: 1 }) : cursor;
  }

  async *scanCounts(span?: BucketSpan): AsyncIterable<{ _id: string; n: number }> {
    const cursor = this.collection.find<{ _id: string; n?: unknown }>(spanFilter(span), {
      projection: { _id: 1, n: 1 },
    });
    for await (const { _id, n } of cursor) yield { _id, n: typeof n === 'number' ? n : 0 };
  }

  byIds(ids: readonly string[]): Promise<BucketRecord[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.collection.find({ _id: { $in: [...ids] } }).toArray();
  }

  async replace(records: readonly BucketRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.collection.bulkWrite(
      records.map((doc) => ({
        replaceOne: { filter: { _id: doc._id }, replacement: doc, upsert: true },
      })),
      { ordered: false },
    );
  }

  /**
   * False when it was already gone (a run next to another one: the outcome wanted; MongoDB
   * before 7.0 answers a drop of a missing collection with an error; the stand-in's has no code,
   * only the message).
   */
  async drop(): Promise<boolean> {
    // FerretDB answers true for a collection that is not there: ask first (a run next to
    // another may still drop it in between — then the drop answers for itself).
    if (this.dialect === 'ferretdb' && !(await this.exists())) return false;
    try {
      return await this.collection.drop();
    } catch (err) {
      const { code, message } = err as { code?: unknown; message?: unknown };
      if (code === NAMESPACE_NOT_FOUND || message === 'ns not found') return false;
      throw err;
    }
  }

  private async exists(): Promise<boolean> {
    const found = await this.db
      .listCollections({ name: this.collection.collectionName }, { nameOnly: true })
      .toArray();
    return found.length > 0;
  }
}
